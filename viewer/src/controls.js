// Play/pause, speed and the time slider over a run's frames. Playing moves
// the clock by the wall time times the speed and shows the last frame at or
// before it; the slider picks a frame. `onFrame(k)` is called when the shown
// frame changes.
export class Playback {
  constructor(times, elements, onFrame) {
    this.times = times;
    this.elements = elements;
    this.onFrame = onFrame;
    this.frame = 0;
    this.clock = times[0];
    this.playing = false;
    const { play, slider, speed } = elements;
    slider.max = String(times.length - 1);
    slider.disabled = play.disabled = times.length < 2;
    play.addEventListener('click', () => this.setPlaying(!this.playing));
    slider.addEventListener('input', () => {
      this.setPlaying(false);
      this.setFrame(Number(slider.value));
    });
    this.speed = () => Number(speed.value);
  }

  setPlaying(playing) {
    if (playing && this.frame === this.times.length - 1) this.setFrame(0);  // play again from the start
    this.playing = playing;
    this.elements.play.textContent = playing ? 'pause' : 'play';
  }

  setFrame(k) {
    this.frame = Math.min(this.times.length - 1, Math.max(0, Math.trunc(k)));
    this.clock = this.times[this.frame];
    this.elements.slider.value = String(this.frame);
    this.elements.time.textContent = `t = ${this.clock.toFixed(4)} s (${this.frame + 1} of ${this.times.length})`;
    this.onFrame(this.frame);
  }

  // Advances a playing run by `seconds` of wall time.
  tick(seconds) {
    if (!this.playing) return;
    this.clock += seconds * this.speed();
    let k = this.frame;
    while (k + 1 < this.times.length && this.times[k + 1] <= this.clock) ++k;
    const end = this.clock >= this.times[this.times.length - 1];
    if (k !== this.frame) {
      const clock = this.clock;
      this.setFrame(k);
      this.clock = clock;
    }
    if (end) this.setPlaying(false);
  }
}
