# Reference values for tests/test_stats_stab.c (st_var_ratio_ci, st_log_sd): Rscript tests/st_stab_ref.R
cases <- list(c(0.002, 8, 0.008, 8), c(0.05, 20, 0.01, 40), c(1.0, 3, 2.0, 5))
for (k in cases) {
  r <- (k[1] / k[2]) / (k[3] / k[4])
  cat(sprintf("{%g, %g, %g, %g, %.15g, %.15g, %.15g},\n", k[1], k[2], k[3], k[4], r,
              r / qf(0.975, k[2], k[4]), r / qf(0.025, k[2], k[4])))
}
cat(sprintf("log sd %.15g\n", sd(log(c(100, 105, 98, 110)))))
