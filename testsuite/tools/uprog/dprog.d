/* dprog.d - the provider of dprog.c, through dtrace -h and -G. */
provider dprog {
	probe start(int count, const char *name);
	probe query__done(long id, int status, char flag);
	probe tick();
#ifdef DPROG_EXTRA
	probe extra(int);
#endif
};
