# Reference values for tests/test_stats_stab.c (st_var_ratio_ci, st_log_sd) and tests/test_run_stab.c
# (run_stab_analyze): Rscript tests/st_stab_ref.R > tests/st_stab_ref.out
cases <- list(c(0.002, 8, 0.008, 8), c(0.05, 20, 0.01, 40), c(1.0, 3, 2.0, 5))
for (k in cases) {
  r <- (k[1] / k[2]) / (k[3] / k[4])
  cat(sprintf("{%g, %g, %g, %g, %.15g, %.15g, %.15g},\n", k[1], k[2], k[3], k[4], r,
              r / qf(0.975, k[2], k[4]), r / qf(0.025, k[2], k[4])))
}
cat(sprintf("log sd %.15g\n", sd(log(c(100, 105, 98, 110)))))
# run_stab_analyze on synthetic files (tests/test_run_stab.c): restart means per query
d1 <- c(100, 110, 105); d6 <- c(20, 21, 19.5)
c1 <- c(100, 101, 102); c6 <- c(20, 20.2, 19.9)
sdd <- c(sd(log(d1)), sd(log(d6))); sdc <- c(sd(log(c1)), sd(log(c6)))
r <- (sum(2 * sdc^2) / 4) / (sum(2 * sdd^2) / 4)
cat(sprintf("default median %.15g worst %.15g\n", median(sdd), max(sdd)))
cat(sprintf("cand median %.15g worst %.15g ratio %.15g lo %.15g hi %.15g\n", median(sdc),
            max(sdc), r, r / qf(0.975, 4, 4), r / qf(0.025, 4, 4)))
