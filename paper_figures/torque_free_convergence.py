"""Figure torque-free-convergence: the free rigid body integrated with RK4.

Left: max angular-velocity error against step size (log-log) with a slope-4
guide, with the energy and angular-momentum drifts. Right: the angular
velocity in principal axes at the finest step, computed and exact, showing the
intermediate-axis flip.

Usage: torque_free_convergence.py DATA_DIR NAME  (reads convergence.csv and
omega.csv written by `contactref figures`; writes NAME.png and NAME.pdf).
"""
from pathlib import Path

import figure_io
import matplotlib.pyplot as plt
import numpy as np


def main(data_dir: Path, name: str) -> None:
    conv = np.genfromtxt(data_dir / "convergence.csv", delimiter=",", names=True)
    omega = np.genfromtxt(data_dir / "omega.csv", delimiter=",", names=True)

    fig, (ax_conv, ax_omega) = plt.subplots(1, 2, figsize=(11, 4.2))
    h = conv["h"]
    ax_conv.loglog(h, conv["omega_error"], "o-", label=r"max $|\omega - \omega_{exact}| / |\omega_0|$")
    ax_conv.loglog(h, conv["energy_drift"], "s--", label=r"max $|E - E_0| / E_0$")
    ax_conv.loglog(h, conv["momentum_drift"], "^:", label=r"max $|L_w - L_w(0)| / |L_w(0)|$")
    guide = conv["omega_error"][-1] * (h / h[-1]) ** 4
    ax_conv.loglog(h, guide, "k-", alpha=0.4, label="slope 4")
    ax_conv.set_xlabel("step h (s)")
    ax_conv.set_ylabel("relative error")
    ax_conv.set_title("RK4 convergence, 10 periods")
    ax_conv.grid(True, which="both", alpha=0.3)
    ax_conv.legend(fontsize=8)

    t = omega["t"]
    for i, color in zip((1, 2, 3), ("C0", "C1", "C2")):
        ax_omega.plot(t, omega[f"exact_{i}"], color=color, lw=2.5, alpha=0.35, label=rf"$\omega_{i}$ exact")
        ax_omega.plot(t, omega[f"omega_{i}"], color=color, lw=0.8, label=rf"$\omega_{i}$ RK4")
    ax_omega.set_xlabel("t (s)")
    ax_omega.set_ylabel("angular velocity, principal axes (rad/s)")
    ax_omega.set_title("intermediate-axis flip, finest step")
    ax_omega.legend(fontsize=7, ncol=3)

    figure_io.save(fig, data_dir, name)


if __name__ == "__main__":
    figure_io.run(main, __doc__)
