# Parameter sweeps (config `sweeps`): per point a scene variant and one
# `contactref simulate`; per sweep one table (OUT/sweeps/NAME/NAME.csv) and
# one figure (OUT/sweeps/NAME/NAME.png).

def sweep_dir(w):
    return f"{OUT}/sweeps/{w.sweep}"


rule sweep_scene:
    input:
        scene=lambda w: str(S.sweeps[w.sweep].scene),
        script=f"{SCRIPTS}/sweep_scene.py",
    output:
        scene=f"{OUT}/sweeps/{{sweep}}/points/{{point}}/scene.json",
        point=f"{OUT}/sweeps/{{sweep}}/points/{{point}}/point.json",
    params: values=lambda w: json.dumps(S.sweeps[w.sweep].points[w.point])
    log: f"{OUT}/logs/sweeps/{{sweep}}/{{point}}.scene.log"
    message: "sweep {wildcards.sweep}: scene of point {wildcards.point}"
    shell:
        "{PYTHON:q} {input.script:q} {input.scene:q} --set {params.values:q}"
        " --scene-out {output.scene:q} --point-out {output.point:q} 2> {log:q}"


rule sweep_run:
    input:
        contactref=CONTACTREF,
        scene=f"{OUT}/sweeps/{{sweep}}/points/{{point}}/scene.json",
    output: status=f"{OUT}/sweeps/{{sweep}}/points/{{point}}/exit.json"
    params: run=lambda w: f"{sweep_dir(w)}/points/{w.point}/run"
    log: f"{OUT}/logs/sweeps/{{sweep}}/{{point}}.simulate.log"
    message: "sweep {wildcards.sweep}: simulate point {wildcards.point}"
    threads: 1
    # Exit 1 is a run that ended failed: a row of the table with its status.
    # Exit 2 (bad input, e.g. a value out of range) fails the sweep.
    shell:
        "CONTACTREF_THREADS={threads} {PYTHON:q} {RUN_STEP:q} --status {output.status:q} --log {log:q}"
        " --allow-exit 1 --fresh {params.run:q}"
        " -- {input.contactref:q} simulate {input.scene:q} --out {params.run:q}"


def sweep_point_files(name):
    return lambda w: [f"{OUT}/sweeps/{w.sweep}/points/{point}/{name}" for point in S.sweeps[w.sweep].points]


rule sweep_table:
    input:
        points=sweep_point_files("point.json"),
        exits=sweep_point_files("exit.json"),
        script=f"{SCRIPTS}/sweep_table.py",
    output: f"{OUT}/sweeps/{{sweep}}/{{sweep}}.csv"
    params:
        dirs=lambda w: [f"{sweep_dir(w)}/points/{point}" for point in S.sweeps[w.sweep].points],
        fields=lambda w: json.dumps(S.sweeps[w.sweep].fields),
    log: f"{OUT}/logs/sweeps/{{sweep}}/table.log"
    message: "sweep {wildcards.sweep}: table"
    shell:
        "{PYTHON:q} {input.script:q} --fields {params.fields:q} --out {output:q} {params.dirs:q} 2> {log:q}"


rule sweep_plot:
    input:
        table=f"{OUT}/sweeps/{{sweep}}/{{sweep}}.csv",
        script=f"{SCRIPTS}/sweep_plot.py",
    output: f"{OUT}/sweeps/{{sweep}}/{{sweep}}.png"
    params:
        plot=lambda w: json.dumps(S.sweeps[w.sweep].plot),
        paths=lambda w: json.dumps(S.sweeps[w.sweep].paths),
    log: f"{OUT}/logs/sweeps/{{sweep}}/plot.log"
    message: "sweep {wildcards.sweep}: figure"
    shell:
        "{PYTHON:q} {input.script:q} {input.table:q} --plot {params.plot:q} --set-paths {params.paths:q}"
        " --title {wildcards.sweep} --out {output:q} 2> {log:q}"
