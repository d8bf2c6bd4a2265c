/* A memory streamer for doctor's host_noise check: writes and reads 256 MiB forever. */
#include <stdlib.h>
#include <string.h>
int main(void)
{
	size_t n = (size_t)256 << 20;
	char *a = malloc(n);
	volatile unsigned long sum = 0;
	if (!a)
		return 1;
	for (int v = 0;; v++) {
		memset(a, v, n);
		for (size_t i = 0; i < n; i += 64)
			sum += (unsigned char)a[i];
	}
}
