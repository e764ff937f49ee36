# One pair of jobs per animation of the catalogue (config `animations`): the
# scene run by `contactref simulate` into OUT/animations/NAME/run (a folder
# that `contactref view` plays), then paper_figures/animate_run.py draws
# OUT/animations/NAME/NAME.gif from that folder. The report shows the GIF
# beside its suite's figures with the command that opens the run in the viewer.

ANIMATE = str(ROOT / "paper_figures" / "animate_run.py")


def animation_dir(w):
    return f"{OUT}/animations/{w.animation}"


rule animation_run:
    input:
        contactref=CONTACTREF,
        scene=lambda w: str(S.animations[w.animation].scene),
    output: status=f"{OUT}/status/animations/{{animation}}.run.json"
    params: run=lambda w: f"{animation_dir(w)}/run"
    log: f"{OUT}/logs/animations/{{animation}}.simulate.log"
    message: "animation {wildcards.animation}: simulate"
    threads: 1
    # Exit 1 is a run that ended failed: it is still drawn, and the verdict
    # names it. Exit 2 (the scene is bad input) fails the job.
    shell:
        "CONTACTREF_THREADS={threads} {PYTHON:q} {RUN_STEP:q} --status {output.status:q} --log {log:q}"
        " --allow-exit 1 --fresh {params.run:q} --requires {params.run:q}/bodies.csv"
        " -- {input.contactref:q} simulate {input.scene:q} --out {params.run:q}"


rule animation:
    input:
        run=f"{OUT}/status/animations/{{animation}}.run.json",
        script=ANIMATE,
    output: status=f"{OUT}/status/animations/{{animation}}.json"
    params:
        run=lambda w: f"{animation_dir(w)}/run",
        gif=lambda w: f"{animation_dir(w)}/{w.animation}.gif",
        view=lambda w: (f"--frames {S.animations[w.animation].frames} --fps {S.animations[w.animation].fps}"
                        f" --elevation {S.animations[w.animation].elevation}"
                        f" --azimuth {S.animations[w.animation].azimuth} --title {w.animation}"),
    log: f"{OUT}/logs/animations/{{animation}}.draw.log"
    message: "animation {wildcards.animation}: draw"
    # Exit 1 (the script failed) is named by the verdict; exit 2 (a run
    # folder it cannot read) fails the job.
    shell:
        "{PYTHON:q} {RUN_STEP:q} --status {output.status:q} --log {log:q} --allow-exit 1"
        " -- {PYTHON:q} {input.script:q} {params.run:q} {params.gif:q} {params.view}"
