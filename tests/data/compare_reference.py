#!/usr/bin/env python3
# Reference numbers for `dbt3stab compare` computed outside dbt3stab: R's t.test and p.adjust on
# the log restart means of fixed result files (tests/data/cmp_*.json), per case of CASES below.
# Writes tests/data/compare_reference.json, which tests/test_compare_reference.c compares with
# `dbt3stab compare --format json` at 1e-9 relative. Run by hand (needs python3 and Rscript; the
# test needs neither): python3 tests/data/compare_reference.py
# The rules reproduced are those of docs/statistics.md: restart mean = mean of the measured runs;
# ratio = exp(mean log new - mean log old), its CI exp(t.test's CI of the difference); Welch or
# Student t; the moderated t of Smyth (2004) with the prior fitted as limma's fitFDist (written
# out below: limma is not installed); Holm or BH; verdicts; the overall ratio by restart.
# Issue 14: "auto" (Student t when both sides have equal restarts and R's var.test gives p >=
# 0.05, else Welch); alternative "greater" (regressions from t.test(alternative = "greater"),
# improvements a second family from alternative = "less", each adjusted on its own); unchanged
# when the (1 - 2 alpha) CI lies inside the margin (TOST).
import json
import os
import subprocess

here = os.path.dirname(os.path.abspath(__file__))

# name, old file, new file, options (all given explicitly on the command line)
CASES = [
    ("regress_auto_greater_holm", "cmp_old.json", "cmp_regress.json",
     {"method": "auto", "correction": "holm", "alpha": 0.05, "min_effect": 0.02,
      "alternative": "greater"}),
    ("aa_auto_greater_holm", "cmp_old.json", "cmp_same.json",
     {"method": "auto", "correction": "holm", "alpha": 0.05, "min_effect": 0.02,
      "alternative": "greater"}),
    ("tight_auto_greater_holm", "cmp_tight_old.json", "cmp_tight_new.json",
     {"method": "auto", "correction": "holm", "alpha": 0.05, "min_effect": 0.02,
      "alternative": "greater"}),
    ("regress_welch_holm", "cmp_old.json", "cmp_regress.json",
     {"method": "welch", "correction": "holm", "alpha": 0.05, "min_effect": 0.02}),
    ("regress_pooled_bh", "cmp_old.json", "cmp_regress.json",
     {"method": "pooled", "correction": "bh", "alpha": 0.05, "min_effect": 0.02}),
    ("regress_eb_holm", "cmp_old.json", "cmp_regress.json",
     {"method": "eb", "correction": "holm", "alpha": 0.05, "min_effect": 0.02}),
    ("tight_welch_holm_2pct", "cmp_tight_old.json", "cmp_tight_new.json",
     {"method": "welch", "correction": "holm", "alpha": 0.05, "min_effect": 0.02}),
    ("aa_welch_none_10pct", "cmp_old.json", "cmp_same.json",
     {"method": "welch", "correction": "none", "alpha": 0.10, "min_effect": 0.02}),
]

R_CODE = r'''
args <- commandArgs(trailingOnly = TRUE)
d <- read.table(args[1], header = TRUE, sep = "\t", stringsAsFactors = FALSE)
method <- args[2]; correction <- args[3]; alpha <- as.numeric(args[4]); me <- as.numeric(args[5])
alt <- args[6]
num <- function(x) if (is.finite(x)) sprintf("%.17g", x) else sprintf("\"%s\"", x)
# restart means (mean of the measured runs), by query, side, restart
rm <- aggregate(ms ~ query + side + restart, data = d, FUN = mean)
qs <- unique(d$query)
lg <- function(q, s) log(rm$ms[rm$query == q & rm$side == s][order(rm$restart[rm$query == q & rm$side == s])])
# limma's fitFDist (Smyth 2004 sec. 6.2), written out; trigamma inverted with uniroot
prior <- c(df = 0, var = NA)
if (method == "eb") {
  v <- sapply(qs, function(q) { a <- lg(q, "old"); b <- lg(q, "new")
    ((length(a) - 1) * var(a) + (length(b) - 1) * var(b)) / (length(a) + length(b) - 2) })
  dd <- sapply(qs, function(q) length(lg(q, "old")) + length(lg(q, "new")) - 2)
  e <- log(v) - digamma(dd / 2) + log(dd / 2)
  rhs <- var(e) - mean(trigamma(dd / 2))
  if (rhs > 0) {
    half <- uniroot(function(x) trigamma(x) - rhs, c(1e-8, 1e8), tol = 1e-14)$root
    prior <- c(df = 2 * half, var = exp(mean(e) + digamma(half) - log(half)))
  } else prior <- c(df = Inf, var = exp(mean(e)))
}
res <- lapply(qs, function(q) {
  a <- lg(q, "old"); b <- lg(q, "new"); diff <- mean(b) - mean(a)
  if (method == "eb") {
    d0 <- length(a) + length(b) - 2
    s2 <- ((length(a) - 1) * var(a) + (length(b) - 1) * var(b)) / d0
    if (is.finite(prior["df"])) { df <- prior["df"] + d0; s2 <- (prior["df"] * prior["var"] + d0 * s2) / df }
    else { df <- Inf; s2 <- prior["var"] }
    se <- sqrt(s2 * (1 / length(a) + 1 / length(b)))
    q_ <- if (is.finite(df)) qt(1 - alpha / 2, df) else qnorm(1 - alpha / 2)
    t <- diff / se
    p <- if (is.finite(df)) 2 * pt(-abs(t), df) else 2 * pnorm(-abs(t))
    ci <- diff + c(-1, 1) * q_ * se
    q90 <- if (is.finite(df)) qt(1 - alpha, df) else qnorm(1 - alpha)
    ci90 <- diff + c(-1, 1) * q90 * se
    pl <- NA
  } else {
    pooled <- method == "pooled" ||
      (method == "auto" && length(a) == length(b) && var.test(b, a)$p.value >= 0.05)
    tt <- t.test(b, a, var.equal = pooled, conf.level = 1 - alpha)
    t <- unname(tt$statistic); df <- unname(tt$parameter); p <- tt$p.value; ci <- tt$conf.int
    ci90 <- t.test(b, a, var.equal = pooled, conf.level = 1 - 2 * alpha)$conf.int
    pl <- NA
    if (alt == "greater") {
      p <- t.test(b, a, var.equal = pooled, alternative = "greater")$p.value
      pl <- t.test(b, a, var.equal = pooled, alternative = "less")$p.value
    }
  }
  list(id = q, ratio = exp(diff), ci = exp(ci), ci90 = exp(ci90), t = unname(t),
       df = unname(df), p = unname(p), pl = unname(pl),
       gm_old = exp(mean(a)), gm_new = exp(mean(b)), sd_old = sd(a), sd_new = sd(b))
})
ps <- sapply(res, function(r) r$p)
padj <- p.adjust(ps, method = c(holm = "holm", bh = "BH", none = "none")[correction])
padj_l <- if (alt == "greater") p.adjust(sapply(res, function(r) r$pl),
  method = c(holm = "holm", bh = "BH", none = "none")[correction]) else padj
cat("{\"queries\": [\n")
for (i in seq_along(res)) {
  r <- res[[i]]; pa <- padj[i]; pl <- padj_l[i]
  verdict <- if (pa < alpha && r$ratio > 1 && r$ratio >= 1 + me) "regression" else
    if (pl < alpha && r$ratio < 1 && r$ratio <= 1 / (1 + me)) "improvement" else
    if (r$ci90[1] > 1 / (1 + me) && r$ci90[2] < 1 + me) "unchanged" else "inconclusive"
  cat(sprintf("{\"id\": \"%s\", \"verdict\": \"%s\", \"ratio\": %s, \"ci\": [%s, %s], \"t\": %s, \"df\": %s, \"p\": %s, \"p_adjusted\": %s, \"old_gmean_ms\": %s, \"new_gmean_ms\": %s, \"old_sd_log\": %s, \"new_sd_log\": %s}%s\n",
      r$id, verdict, num(r$ratio), num(r$ci[1]), num(r$ci[2]), num(r$t), num(r$df), num(r$p),
      num(pa), num(r$gm_old), num(r$gm_new), num(r$sd_old), num(r$sd_new),
      if (i < length(res)) "," else ""))
}
# overall: per restart, the mean over the queries of the log restart means; Welch on those
g <- function(s) { m <- sapply(qs, function(q) lg(q, s)); rowMeans(matrix(m, ncol = length(qs))) }
ot <- t.test(g("new"), g("old"), var.equal = FALSE, conf.level = 1 - alpha)
od <- mean(g("new")) - mean(g("old"))
cat(sprintf("], \"overall\": {\"ratio\": %s, \"ci\": [%s, %s], \"t\": %s, \"df\": %s, \"p\": %s}",
    num(exp(od)), num(exp(ot$conf.int[1])), num(exp(ot$conf.int[2])), num(unname(ot$statistic)),
    num(unname(ot$parameter)), num(ot$p.value)))
if (method == "eb") cat(sprintf(", \"eb_prior\": {\"df\": %s, \"var_log\": %s}", num(prior["df"]), num(prior["var"])))
cat("}\n")
'''


def runs_tsv(old, new, path):
    """The measured runs of every ok restart of both files, one per line."""
    with open(path, "w") as out:
        out.write("query\tside\trestart\tms\n")
        for side, name in (("old", old), ("new", new)):
            with open(os.path.join(here, name)) as f:
                res = json.load(f)
            for q in res["queries"]:
                for r in q["restarts"]:
                    assert r["status"] == "ok", "the reference covers complete restarts only"
                    for ms in r["measured_ms"]:
                        out.write(f"{q['id']}\t{side}\t{r['index']}\t{ms!r}\n")


def main():
    tmp = os.path.join(here, ".compare_reference.tmp")
    os.makedirs(tmp, exist_ok=True)
    r_file = os.path.join(tmp, "ref.R")
    with open(r_file, "w") as f:
        f.write(R_CODE)
    version = subprocess.run(["Rscript", "-e", "cat(R.version.string)"], check=True,
                             capture_output=True, text=True).stdout
    out = {"generated_by": "tests/data/compare_reference.py with " + version, "cases": []}
    for name, old, new, opts in CASES:
        tsv = os.path.join(tmp, name + ".tsv")
        runs_tsv(old, new, tsv)
        txt = subprocess.run(["Rscript", r_file, tsv, opts["method"], opts["correction"],
                              repr(opts["alpha"]), repr(opts["min_effect"]),
                              opts.setdefault("alternative", "two-sided")],
                             check=True, capture_output=True, text=True).stdout
        ref = json.loads(txt)
        out["cases"].append({"name": name, "old": old, "new": new, "options": opts, **ref})
    for f in os.listdir(tmp):
        os.remove(os.path.join(tmp, f))
    os.rmdir(tmp)
    with open(os.path.join(here, "compare_reference.json"), "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
