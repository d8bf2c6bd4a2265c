/* The program behind small.out (gen.sh): calls, an inlined header, a recursion. */
#include "cgfx.h"
#include <stdio.h>
#include <string.h>

__attribute__((noinline)) long leaf_a(long x)
{
	for (int i = 0; i < 1000; i++)
		x += i ^ x;
	return x;
}

__attribute__((noinline)) long leaf_b(long x)
{
	return mix(x) + leaf_a(x);
}

__attribute__((noinline)) long fib(long n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

__attribute__((noinline)) long tiny(long x)
{
	return x + 1;
}

__attribute__((noinline)) long work(long x)
{
	char buf[64];
	for (int i = 0; i < 20; i++)
		x = leaf_a(x) + leaf_b(x);
	x += fib(12) + tiny(x);
	memset(buf, (int)x, sizeof(buf));
	return x + buf[3];
}

int main(void)
{
	printf("%ld\n", work(3));
	return 0;
}
