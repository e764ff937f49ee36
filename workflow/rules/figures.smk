# One job per figure: `contactref figures --only NAME --out OUT` writes
# OUT/figures/NAME/NAME.png (+ .pdf and its CSV data).

for rule_name, figures, rank in ranked("figure", S.figures):

    rule:
        name: rule_name
        input: contactref=CONTACTREF
        wildcard_constraints: figure=alternatives(figures)
        priority: rank
        output: status=f"{OUT}/status/figures/{{figure}}.json"
        params: dir=lambda w: f"{OUT}/figures/{w.figure}"
        log: f"{OUT}/logs/figures/{{figure}}.log"
        message: "figure {wildcards.figure}"
        # A figure whose data are timings (config exclusive_figures) claims every
        # core, so that it runs alone; the others take one, told to contactref.
        threads: lambda w: EXCLUSIVE_THREADS if w.figure in S.exclusive_figures else 1
        resources: slurm_extra=lambda w: "--exclusive" if w.figure in S.exclusive_figures else ""
        # Exit 1: the figure was not drawn; `verdict` reports it after the report.
        # --fresh: a figure that fails must not leave a previous run's PNG behind.
        shell:
            "CONTACTREF_THREADS={threads} {PYTHON:q} {RUN_STEP:q} --status {output.status:q} --log {log:q}"
            " --allow-exit 1 --fresh {params.dir:q}"
            " -- {input.contactref:q} figures --only {wildcards.figure} --out {OUT:q}"
