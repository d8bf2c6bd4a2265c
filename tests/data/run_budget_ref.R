# Reference values for tests/test_run_budget.c, computed independently of the C code: the
# cost-optimal runs per restart by brute force over n, the repeated-CI decisions with R's t
# quantiles, the single-build precision rule, and the warm-up rule's false "unsteady" rate on
# steady series (analytic, and by simulation).
# Run: Rscript tests/data/run_budget_ref.R
cat("# runs per restart: argmin over integer n in [nmin, nmax] of (vb + vw/n)(cf + n ce)\n")
runs <- rbind(c(30, 0.5, 4e-4, 1e-4, 2, 10), c(2, 0.5, 4e-4, 1e-4, 2, 10),
              c(3, 0.4, 1e-4, 4e-4, 2, 10), c(10, 1, 1e-4, 2e-5, 1, 20),
              c(7, 1, 2.5e-4, 1e-4, 1, 20), c(5, 0.25, 3e-4, 1e-4, 3, 12))
for (i in seq_len(nrow(runs))) {
  p <- runs[i, ]
  n <- p[5]:p[6]
  f <- (p[4] + p[3] / n) * (p[1] + n * p[2])
  cat(sprintf("runs cf=%g ce=%g vw=%g vb=%g [%d,%d] -> %d\n", p[1], p[2], p[3], p[4], p[5], p[6],
              n[which.min(f)]))
}
cat("# look alpha = alpha * 6 / (pi^2 k^2) / m\n")
for (a in list(c(0.05, 1, 1), c(0.05, 3, 22), c(0.05, 10, 22)))
  cat(sprintf("look alpha %g k=%d m=%d -> %.12g\n", a[1], a[2], a[3], a[1] * 6 / (pi^2 * a[2]^2) / a[3]))
cat("# paired repeated CI (detect 3%, alpha 0.05, m 22)\n")
cases <- list(
  regress = list(c(100, 102, 99, 101, 100, 98), c(120, 121, 119, 122, 118, 120)),
  same = list(c(100, 101, 99, 100.5, 99.5, 100.2, 100.1, 99.8),
              c(100.2, 100.9, 99.1, 100.4, 99.7, 100.0, 100.3, 99.9)),
  noisy = list(c(100, 110, 90), c(104, 112, 95)))
for (nm in names(cases)) {
  d <- log(cases[[nm]][[2]]) - log(cases[[nm]][[1]])
  k <- length(d)
  ak <- 0.05 * 6 / (pi^2 * k^2) / 22
  half <- qt(1 - ak / 2, k - 1) * sd(d) / sqrt(k)
  cat(sprintf("paired %s: ratio %.10f lo %.10f hi %.10f\n", nm, exp(mean(d)),
              exp(mean(d) - half), exp(mean(d) + half)))
}
cat("# single build: (t(1-a/(2m), k-1) + z(0.8)) sqrt(2) sd/sqrt(k) <= log(1.03), a 0.05, m 22\n")
for (m in list(c(100, 100.5, 99.7, 100.2, 99.9), c(100, 105, 95, 102, 98))) {
  l <- log(m)
  k <- length(l)
  need <- (qt(1 - 0.05 / 44, k - 1) + qnorm(0.8)) * sqrt(2) * sd(l) / sqrt(k)
  cat(sprintf("single %s: need %.6f bound %.6f -> %s\n", paste(m, collapse = ","), need,
              log(1.03), need <= log(1.03)))
}
cat("# warm-up rule on steady series: |log(mean(last 2) / mean(2 before))| > tol at one check\n")
cat(sprintf("analytic, tol = 3 sd of the log ratio: 2 (1 - Phi(3)) = %.6f\n", 2 * pnorm(-3)))
set.seed(20131)
for (cov in c(0.01, 0.03, 0.10)) {
  s <- sqrt(log1p(cov^2))
  n <- 400000
  x <- matrix(exp(rnorm(4 * n, 0, s)), ncol = 4)
  r <- abs(log((x[, 3] + x[, 4]) / (x[, 1] + x[, 2])))
  tol <- max(0.02, 3 * cov)
  cat(sprintf("cov %g: tol %g unsteady rate %.6f\n", cov, tol, mean(r > tol)))
}
cat("# not_steady: exact Mann-Kendall at n = 10, 22 queries x 5 restarts of steady series\n")
n <- 10
N <- n * (n - 1) / 2
f <- 1 # distribution of the number of inversions, built one element at a time
for (k in 2:n) f <- sapply(0:(k * (k - 1) / 2), function(i) sum(f[(max(0, i - k + 1):i) + 1], na.rm = TRUE)) / k
S <- N - 2 * (0:N)
p <- sapply(S, function(s) min(1, sum(f[abs(S) >= abs(s)])))
size <- function(a) sum(f[p < a])
m <- 110
cat(sprintf("per test P(p < 0.05) = %.6f; family of %d uncorrected: %.6f\n", size(0.05), m,
            1 - (1 - size(0.05))^m))
cat(sprintf("Holm at 0.05 (first step alpha/m): per test %.3g; family: %.6f\n", size(0.05 / m),
            1 - (1 - size(0.05 / m))^m))
