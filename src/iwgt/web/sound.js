// Sound at the table: short effects and optional background music, synthesised in the browser with WebAudio
// (oscillators, noise buffers, gain envelopes): no sound file is downloaded or shipped. The shell calls in at a
// few places (a view heard, a refusal, the timer's last seconds) and this module decides which cue plays, from
// the view's light effects and the new steps' action types only, so it names no game. A game's screen module
// may extend or silence the choice with `static sounds = {effects: {...}, actions: {...}}` (docs/screen-shell.md,
// "Sound"). Sound is on and music off unless the device's player said otherwise (localStorage).
//
// Browsers let a page make sound only after a user gesture (the autoplay policy): the AudioContext is created
// and resumed inside the first tap or key press, and a cue asked for before that is silently skipped.
// `window.iwgtSound` lets a test (or a curious player) read what was played, without listening to it.

import { h, s } from "./dom.js";

const KEY_SOUND = "iwgt.sound";
const KEY_MUSIC = "iwgt.music";
const MASTER_GAIN = 0.16; // every cue and the music go through this: never louder than 0.2 at the output
const MUSIC_GAIN = 0.35; // the music bus, relative to the master: a background, well under the effects
const TICK_FROM_S = 10; // the timer ticks in its last ten seconds
const URGENT_S = 3; // and higher in the last three
const CUE_DELAY_MAX_MS = 2500; // a cue follows its lights' delay, but never later than this
const GAME_OVER_DELAY_MAX_MS = 4000; // the fanfare waits for the last step's lights, as Game Over does
const PLAYED_MAX = 200;

/** Light effects the shared tables use, and the cue a new light of that effect plays. */
export const EFFECT_CUES = Object.freeze({
  destination: "move",
  charge: "charge",
  melee: "combat",
  firing: "combat",
  under_fire: "combat",
  won: "combat",
  lost: "combat",
  destroyed: "combat",
  spell: "spell",
});

/** Common action types of a new step, and their cue (when its lights say nothing more). */
export const ACTION_CUES = Object.freeze({
  move: "move",
  place: "move",
  withdraw: "move",
  cross: "move",
  charge: "charge",
  fight: "combat",
  shoot: "combat",
  attack: "combat",
  cast: "spell",
});

/** Every cue, the cause before its outcome (a step's cues at the same moment play in this order). */
export const CUES = Object.freeze(["move", "charge", "spell", "combat", "refused", "tick", "gameover"]);

// ------------------------------------------------------------------------------------------------ settings

function stored(key, fallback) {
  try {
    const v = localStorage.getItem(key);
    return v === null ? fallback : v === "on";
  } catch {
    return fallback; // storage refused (a private window): the defaults, not remembered
  }
}

function store(key, on) {
  try {
    localStorage.setItem(key, on ? "on" : "off");
  } catch {
    /* not remembered on this device, still applied on this page */
  }
}

const state = {
  sound: stored(KEY_SOUND, true),
  music: stored(KEY_MUSIC, false),
  ctx: null,
  master: null,
  noise: null,
  musicPlayer: null,
  lastVersion: null, // the newest step heard (a view of the same version for another seat plays nothing)
  lastStatus: null,
  lastLights: new Set(),
  lastTick: null,
  listeners: new Set(),
};

/** Whether sound (every cue and the music) is on on this device. */
export function soundOn() {
  return state.sound;
}

/** Whether background music is switched on on this device (it plays only while sound is on too). */
export function musicOn() {
  return state.music;
}

/** Switch every sound on or off; remembered on this device. */
export function setSound(on) {
  state.sound = Boolean(on);
  store(KEY_SOUND, state.sound);
  if (state.sound) context(); // the switch is a tap: a gesture that may start the audio
  if (state.master) state.master.gain.value = state.sound ? MASTER_GAIN : 0;
  syncMusic();
  changed();
}

/** Switch the background music on or off; remembered on this device. */
export function setMusic(on) {
  state.music = Boolean(on);
  store(KEY_MUSIC, state.music);
  if (state.music && state.sound) context();
  syncMusic();
  changed();
}

function changed() {
  for (const f of state.listeners) f();
}

// ------------------------------------------------------------------------------------------------ audio graph

/** The page's AudioContext, created or resumed (only a gesture lets it run); null without WebAudio. */
function context() {
  if (!state.ctx) {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return null;
    state.ctx = new Ctx();
    state.master = state.ctx.createGain();
    state.master.gain.value = state.sound ? MASTER_GAIN : 0;
    state.master.connect(state.ctx.destination);
  }
  if (state.ctx.state === "suspended") state.ctx.resume().catch(() => { /* no gesture yet: stays quiet */ });
  return state.ctx;
}

// The first tap or key press anywhere unlocks the audio (capture: before a dialog's button closes it).
for (const type of ["pointerdown", "keydown", "touchend"]) {
  window.addEventListener(type, () => {
    if (state.sound) context();
    syncMusic();
  }, { capture: true, passive: true });
}

function noiseBuffer(ctx) {
  if (!state.noise) {
    const buf = ctx.createBuffer(1, ctx.sampleRate, ctx.sampleRate); // one second of white noise, looped
    const data = buf.getChannelData(0);
    let seed = 12345; // a fixed seed: the same noise on every page, no Math.random needed
    for (let i = 0; i < data.length; i += 1) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      data[i] = (seed / 0x3fffffff) - 1;
    }
    state.noise = buf;
  }
  return state.noise;
}

/** An envelope: silent, up to `peak` in `attack` seconds, then an exponential fall to silence at `end`. */
function envelope(ctx, t, peak, attack, end) {
  const g = ctx.createGain();
  g.gain.setValueAtTime(0.0001, t);
  g.gain.linearRampToValueAtTime(peak, t + attack);
  g.gain.exponentialRampToValueAtTime(0.0001, end);
  return g;
}

/** One oscillator voice: a frequency (gliding to `to`), a shape, an envelope and an optional low-pass filter. */
function tone(ctx, out, t, { freq, to = null, type = "sine", dur = 0.2, peak = 0.5, attack = 0.005, lowpass = null, detune = 0 }) {
  const osc = ctx.createOscillator();
  osc.type = type;
  osc.detune.value = detune;
  osc.frequency.setValueAtTime(freq, t);
  if (to) osc.frequency.exponentialRampToValueAtTime(to, t + dur);
  const env = envelope(ctx, t, peak, attack, t + dur);
  let head = osc;
  if (lowpass) {
    const f = ctx.createBiquadFilter();
    f.type = "lowpass";
    f.frequency.value = lowpass;
    osc.connect(f);
    head = f;
  }
  head.connect(env).connect(out);
  osc.start(t);
  osc.stop(t + dur + 0.05);
}

/** A burst of filtered noise (a footfall, a clash of steel, a rattle). */
function hiss(ctx, out, t, { dur = 0.1, peak = 0.4, filter = "bandpass", freq = 2000, q = 1, attack = 0.002 }) {
  const src = ctx.createBufferSource();
  src.buffer = noiseBuffer(ctx);
  src.loop = true;
  const f = ctx.createBiquadFilter();
  f.type = filter;
  f.frequency.value = freq;
  f.Q.value = q;
  src.connect(f).connect(envelope(ctx, t, peak, attack, t + dur)).connect(out);
  src.start(t, Math.random() * 0.5);
  src.stop(t + dur + 0.05);
}

const midi = (n) => 440 * 2 ** ((n - 69) / 12);

// One function per cue: each schedules its voices at `t` (the context's time) into `out`.
const VOICES = {
  /** A piece set down: a soft wooden knock. */
  move(ctx, out, t) {
    tone(ctx, out, t, { freq: 420, to: 260, type: "sine", dur: 0.12, peak: 0.7 });
    hiss(ctx, out, t, { dur: 0.05, peak: 0.25, freq: 1800, q: 2 });
  },
  /** A charge: a short rising call over a drum. */
  charge(ctx, out, t) {
    [62, 66, 69].forEach((n, i) => tone(ctx, out, t + i * 0.09, { freq: midi(n), type: "sawtooth", dur: 0.22, peak: 0.3,
      attack: 0.02, lowpass: 1600 }));
    tone(ctx, out, t, { freq: 110, to: 55, type: "sine", dur: 0.25, peak: 0.8 });
    tone(ctx, out, t + 0.18, { freq: 110, to: 55, type: "sine", dur: 0.25, peak: 0.6 });
  },
  /** Combat: a clash of steel, its ring and a thud. */
  combat(ctx, out, t) {
    hiss(ctx, out, t, { dur: 0.18, peak: 0.6, freq: 3200, q: 1.5 });
    tone(ctx, out, t, { freq: 1240, type: "triangle", dur: 0.35, peak: 0.18 });
    tone(ctx, out, t, { freq: 1865, type: "triangle", dur: 0.3, peak: 0.12 });
    tone(ctx, out, t, { freq: 95, to: 50, type: "sine", dur: 0.2, peak: 0.7 });
    hiss(ctx, out, t + 0.12, { dur: 0.12, peak: 0.35, freq: 2600, q: 1.5 });
  },
  /** A spell: a shimmer rising through a modal chord. */
  spell(ctx, out, t) {
    [62, 69, 72, 76, 81].forEach((n, i) => tone(ctx, out, t + i * 0.07, { freq: midi(n), type: "sine", dur: 0.9 - i * 0.08,
      peak: 0.22, attack: 0.06, detune: i % 2 ? 6 : -6 }));
    tone(ctx, out, t, { freq: midi(74), to: midi(86), type: "triangle", dur: 0.7, peak: 0.12, attack: 0.2 });
    hiss(ctx, out, t, { dur: 0.7, peak: 0.08, filter: "highpass", freq: 6000, attack: 0.3 });
  },
  /** A refused move: two short low notes, falling. */
  refused(ctx, out, t) {
    tone(ctx, out, t, { freq: 220, type: "square", dur: 0.11, peak: 0.25, lowpass: 900 });
    tone(ctx, out, t + 0.13, { freq: 165, type: "square", dur: 0.16, peak: 0.25, lowpass: 800 });
  },
  /** One of the timer's last seconds: a clock's tick, higher in the last three. */
  tick(ctx, out, t, left) {
    const urgent = left <= URGENT_S;
    tone(ctx, out, t, { freq: urgent ? 1560 : 1040, type: "sine", dur: urgent ? 0.08 : 0.05, peak: urgent ? 0.45 : 0.3 });
  },
  /** Game over: a slow cadence ending on an open chord. */
  gameover(ctx, out, t) {
    const notes = [[62, 0], [65, 0.22], [69, 0.44], [67, 0.7], [74, 0.95]];
    for (const [n, at] of notes) tone(ctx, out, t + at, { freq: midi(n), type: "triangle", dur: 0.6, peak: 0.35, attack: 0.02 });
    for (const n of [50, 57, 62, 66, 69]) tone(ctx, out, t + 1.2, { freq: midi(n), type: "sine", dur: 1.6, peak: 0.16, attack: 0.05 });
  },
};

/** What was played on this page, newest last: the cue names, and each cue with its detail (a tick's second). */
const played = [];
const history = [];

/**
 * Play a cue now or after `delayMs`. Nothing plays while sound is off, nor before the first gesture has
 * unlocked the audio. Returns whether it was scheduled.
 */
export function play(name, delayMs = 0, arg = undefined) {
  const voice = VOICES[name];
  if (!voice || !state.sound || !state.ctx) return false;
  const ctx = context();
  voice(ctx, state.master, ctx.currentTime + 0.01 + Math.max(0, delayMs) / 1000, arg);
  played.push(name);
  history.push({ cue: name, detail: arg ?? null });
  for (const list of [played, history]) if (list.length > PLAYED_MAX) list.splice(0, list.length - PLAYED_MAX);
  return true;
}

// ------------------------------------------------------------------------------------------------ music

const DORIAN = [0, 2, 3, 5, 7, 9, 10]; // D dorian: a folk mode, neither bright nor sad
const ROOT = 50; // D3
const BEAT_S = 0.5;
const LOOKAHEAD_S = 1.2;

/** A quiet generative background: a breathing drone and a slowly mutating four-note ostinato in D dorian. */
class Music {
  constructor(ctx, out) {
    this.ctx = ctx;
    this.bus = ctx.createGain();
    this.bus.gain.setValueAtTime(0.0001, ctx.currentTime);
    this.bus.gain.linearRampToValueAtTime(MUSIC_GAIN, ctx.currentTime + 3); // fade in
    this.bus.connect(out);
    this.drone = [midi(ROOT - 12), midi(ROOT - 5)].map((f, i) => {
      const osc = ctx.createOscillator();
      osc.frequency.value = f;
      osc.detune.value = i ? 4 : -4;
      const g = ctx.createGain();
      g.gain.value = 0.18;
      const lfo = ctx.createOscillator(); // the drone breathes, slowly
      lfo.frequency.value = 0.07 + i * 0.03;
      const depth = ctx.createGain();
      depth.gain.value = 0.08;
      lfo.connect(depth).connect(g.gain);
      osc.connect(g).connect(this.bus);
      osc.start();
      lfo.start();
      return [osc, lfo];
    });
    this.motif = [0, 2, 4, 3];
    this.step = 0;
    this.notes = 0;
    this.next = ctx.currentTime + 0.5;
    this.timer = setInterval(() => this.schedule(), 300);
    this.schedule();
  }

  schedule() {
    while (this.next < this.ctx.currentTime + LOOKAHEAD_S) {
      const i = this.step % this.motif.length;
      if (this.step > 0 && i === 0 && this.step % 16 === 0) {
        // Every four bars one note of the motif moves a step along the mode: the tune drifts, never loops long.
        const k = Math.floor(Math.random() * this.motif.length);
        this.motif[k] = Math.max(0, Math.min(9, this.motif[k] + (Math.random() < 0.5 ? -1 : 1)));
      }
      const degree = this.motif[i];
      const n = ROOT + 12 + DORIAN[degree % 7] + 12 * Math.floor(degree / 7);
      if (!(i === 3 && Math.random() < 0.3)) { // a rest now and then
        tone(this.ctx, this.bus, this.next, { freq: midi(n), type: "triangle", dur: 1.1, peak: 0.22, attack: 0.01, lowpass: 2200 });
        this.notes += 1;
      }
      this.step += 1;
      this.next += BEAT_S;
    }
  }

  stop() {
    clearInterval(this.timer);
    const t = this.ctx.currentTime;
    this.bus.gain.cancelScheduledValues(t);
    this.bus.gain.setValueAtTime(this.bus.gain.value, t);
    this.bus.gain.linearRampToValueAtTime(0.0001, t + 0.4);
    for (const [osc, lfo] of this.drone) {
      osc.stop(t + 0.5);
      lfo.stop(t + 0.5);
    }
    setTimeout(() => this.bus.disconnect(), 800);
  }
}

/** Start or stop the music to match the switches (it needs sound on, music on, and an unlocked context). */
function syncMusic() {
  const want = state.sound && state.music && state.ctx;
  if (want && !state.musicPlayer) state.musicPlayer = new Music(context(), state.master);
  else if (!want && state.musicPlayer) {
    state.musicPlayer.stop();
    state.musicPlayer = null;
  }
}

// ------------------------------------------------------------------------------------------------ the shell's hooks

/** A light's effect and place, to tell a light this view lit from one already lit before it. */
export const lightKey = (l) => `${l.effect}|${JSON.stringify([l.cell ?? null, l.at ?? null, l.area ?? null, l.region ?? null])}`;

function cueOfEffect(effect, own) {
  if (own && Object.hasOwn(own, effect)) return own[effect];
  if (Object.hasOwn(EFFECT_CUES, effect)) return EFFECT_CUES[effect];
  return String(effect).startsWith("spell") ? "spell" : null; // a spell's wave, a spell's mark
}

function cueOfAction(action, own) {
  if (!action || typeof action !== "object") return null;
  const type = String(action.type || "");
  if (own && Object.hasOwn(own, type)) return own[type];
  if (action.charge === true) return "charge";
  if (Object.hasOwn(ACTION_CUES, type)) return ACTION_CUES[type];
  return Array.isArray(action.to) ? "move" : null; // an action with a destination moves something
}

/**
 * The cues of a new step, each at the earliest delay of the lights that call for it (ms): `previousLights` are
 * the `lightKey`s of the view before, `newSteps` the log's steps this view is the first to show.
 */
export function cuesOf(view, previousLights, sounds = {}, newSteps = []) {
  const at = new Map();
  const want = (cue, ms) => {
    if (cue && VOICES[cue]) at.set(cue, Math.min(at.has(cue) ? at.get(cue) : Infinity, ms));
  };
  for (const l of view.lights || []) {
    // Only what the step did: a light that plays for a while, or one that was not lit before this view.
    const transient = l.duration_ms || l.delay_ms;
    if (!transient && previousLights.has(lightKey(l))) continue;
    want(cueOfEffect(l.effect, sounds.effects), Math.min(CUE_DELAY_MAX_MS, Number(l.delay_ms) || 0));
  }
  for (const step of newSteps) if (step && step.actor !== -1) want(cueOfAction(step.action, sounds.actions), 0);
  if (at.has("charge")) at.delete("move"); // a charge is a move: its own call says it
  // Two cues at once blur: the second follows the first, the cause before its outcome (a charge, then combat).
  const order = [...at.entries()].sort((a, b) => a[1] - b[1] || CUES.indexOf(a[0]) - CUES.indexOf(b[0]));
  for (let i = 1; i < order.length; i += 1) order[i][1] = Math.max(order[i][1], order[i - 1][1] + 300);
  return order.map(([cue, ms]) => ({ cue, ms }));
}

/**
 * A view arrived (the shell's `onView`, before any pass-and-play cover): play the cues of the steps it is the
 * first to show. The first view of a page, a reconnection and a view for another seat of the same step play
 * nothing. `Screen` is the game's screen class (its optional `static sounds`).
 */
export function heard(view, Screen = null) {
  if (!view || typeof view.version !== "number") return;
  const sounds = (Screen && Screen.sounds) || {};
  const previous = state.lastLights;
  state.lastLights = new Set((view.lights || []).map(lightKey));
  const first = state.lastVersion === null;
  if (!first && view.version > state.lastVersion) {
    const steps = (view.log || []).filter((st) => st && typeof st.version === "number" && st.version > state.lastVersion);
    for (const { cue, ms } of cuesOf(view, previous, sounds, steps)) play(cue, ms);
    if (view.status === "over" && state.lastStatus === "playing") play("gameover", gameOverDelay(view));
  }
  if (first || view.version > state.lastVersion) {
    state.lastVersion = view.version;
    state.lastStatus = view.status;
  }
}

function gameOverDelay(view) {
  let ms = 0;
  for (const l of view.lights || []) if (l.duration_ms) ms = Math.max(ms, (Number(l.delay_ms) || 0) + Number(l.duration_ms));
  return Math.min(GAME_OVER_DELAY_MAX_MS, ms + 200);
}

/** An `error` arrived: the table refused an act. */
export function refused() {
  play("refused");
}

/** The timer shows `whole` seconds: tick once per second in the last ten, when it is this screen's seat's. */
export function timerTick(whole, mine) {
  if (whole !== state.lastTick && mine && whole >= 1 && whole <= TICK_FROM_S) play("tick", 0, whole);
  state.lastTick = whole;
}

// ------------------------------------------------------------------------------------------------ switches

function speaker(on) {
  const svg = s("svg", { viewBox: "0 0 24 24", class: "icon", "aria-hidden": "true" });
  svg.append(s("path", { d: "M3 9 L7 9 L12 4 L12 20 L7 15 L3 15 Z" }));
  svg.append(on
    ? s("path", { d: "M15 8 C17 10 17 14 15 16 M18 5 C22 9 22 15 18 19", fill: "none", stroke: "currentColor", "stroke-width": 2 })
    : s("path", { d: "M15 9 L21 15 M21 9 L15 15", fill: "none", stroke: "currentColor", "stroke-width": 2 }));
  return svg;
}

/** The header's speaker button: sound on or off for this device. */
export function soundButton() {
  const btn = h("button", { type: "button", class: "btn small secondary sound-toggle", testid: "sound-toggle",
    onclick: () => setSound(!state.sound) });
  const show = () => {
    const words = state.sound ? "Sound on: tap to mute" : "Sound off: tap to turn on";
    btn.replaceChildren(speaker(state.sound));
    btn.setAttribute("aria-pressed", String(state.sound));
    btn.setAttribute("aria-label", words);
    btn.title = words;
    btn.dataset.sound = state.sound ? "on" : "off";
  };
  show();
  state.listeners.add(show);
  return btn;
}

/** The Options menu's entries for sound and music, in the shell's `{label, testid, run}` form. */
export function soundOptions() {
  return [
    { label: state.sound ? "Sound: on (turn off)" : "Sound: off (turn on)", testid: "options-sound",
      run: () => setSound(!state.sound) },
    { label: state.music ? "Music: on (turn off)" : "Music: off (turn on)", testid: "options-music",
      run: () => setMusic(!state.music) },
  ];
}

window.iwgtSound = {
  played,
  history,
  cues: CUES,
  get sound() { return state.sound; },
  get music() { return state.music; },
  get musicPlaying() { return Boolean(state.musicPlayer); },
  get musicNotes() { return state.musicPlayer ? state.musicPlayer.notes : 0; },
  get audio() { return state.ctx ? state.ctx.state : "none"; },
  setSound,
  setMusic,
  play,
};
