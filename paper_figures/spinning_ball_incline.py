"""Figure spinning-ball-incline: Pauly et al. Fig. 8 redrawn. A spinning
quasi-rigid ball dropped onto a quasi-rigid incline: friction turns its spin
into motion down the slope (the damped run of the suite's full variant).

Left: side view (x, z): the incline, the path of the ball's centre (dotted,
as in the paper) and the ball every 50 ms with an arc whose length shows its
angular velocity. Right: the angular velocity omega_y and the rolling rate
v / h (speed along the slope over the height over the incline) against time:
they meet when the ball rolls.

Usage: spinning_ball_incline.py DATA_DIR NAME  (reads trajectory.csv and
incline.csv written by `contactref figures`; writes NAME.png and NAME.pdf).
"""
from pathlib import Path

import figure_io
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.patches import Arc, Circle


def main(data_dir: Path, name: str) -> None:
    path = np.genfromtxt(data_dir / "trajectory.csv", delimiter=",", names=True)
    meta = np.genfromtxt(data_dir / "incline.csv", delimiter=",", names=True)
    theta, radius, omega0 = float(meta["theta"]), float(meta["radius"]), float(meta["omega0"])

    fig, (ax_s, ax_w) = plt.subplots(1, 2, figsize=(12, 4.6))
    x = path["x"]
    span = np.array([x.min() - 2 * radius, x.max() + 2 * radius])
    ax_s.plot(span, -np.tan(theta) * span, "k-", lw=1.5, label="incline")
    ax_s.plot(x, path["z"], "k:", lw=1, label="centre of the ball")
    t = path["time"]
    for k in np.searchsorted(t, np.arange(0, t[-1], 0.05)):
        centre = (x[k], path["z"][k])
        ax_s.add_patch(Circle(centre, radius, fill=False, color="C0", lw=0.8))
        sweep = 300 * abs(path["omega_y"][k]) / omega0
        ax_s.add_patch(Arc(centre, 1.4 * radius, 1.4 * radius, theta1=90, theta2=90 + sweep, color="C3", lw=1.2))
    ax_s.set_aspect("equal")
    ax_s.set_xlabel("x (m)")
    ax_s.set_ylabel("z (m)")
    ax_s.set_title("side view: the ball every 50 ms, arcs: |omega| / omega0")
    ax_s.legend(fontsize=8)

    ax_w.plot(t, path["omega_y"], label="omega_y (rad/s)")
    ax_w.plot(t, path["speed"] / path["height"], "--", label="v / h (rad/s): rolling when equal")
    ax_w.set_xlabel("time (s)")
    ax_w.set_ylabel("rad/s")
    ax_w.set_title("angular velocity")
    ax_w.grid(True, alpha=0.3)
    ax_w.legend(fontsize=8)

    figure_io.save(fig, data_dir, name)


if __name__ == "__main__":
    figure_io.run(main, __doc__)
