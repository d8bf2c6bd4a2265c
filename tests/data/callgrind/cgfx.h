static inline long mix(long x)
{
	for (int i = 0; i < 40; i++)
		x = x * 31 + i;
	return x;
}
