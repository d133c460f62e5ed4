// Small DOM helpers: every text from the server goes in through textContent or setAttribute, never innerHTML.

const SVG_NS = "http://www.w3.org/2000/svg";

function apply(el, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.setAttribute("class", Array.isArray(value) ? value.filter(Boolean).join(" ") : value);
    else if (key === "text") el.textContent = String(value);
    else if (key === "testid") el.dataset.testid = value;
    else if (key === "style" && typeof value === "object") {
      for (const [prop, v] of Object.entries(value)) el.style.setProperty(prop, v);
    } else if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** An HTML element: h("button", {class: "big", onclick: f, testid: "play"}, "Play"). */
export function h(tag, attrs = {}, ...children) {
  return apply(document.createElement(tag), attrs, children);
}

/** An SVG element, same calling convention as h(). */
export function s(tag, attrs = {}, ...children) {
  return apply(document.createElementNS(SVG_NS, tag), attrs, children);
}

/** Replace every child of el. */
export function fill(el, ...children) {
  el.replaceChildren();
  return apply(el, {}, children);
}

/** A horizontal bar (0..1) with an accessible label. */
export function bar(fraction, label, cls = "") {
  const f = Math.max(0, Math.min(1, Number(fraction) || 0));
  const tone = f > 0.5 ? "ok" : f > 0.25 ? "low" : "bad";
  return h(
    "div",
    { class: ["bar", tone, cls], role: "meter", "aria-valuemin": 0, "aria-valuemax": 100,
      "aria-valuenow": Math.round(f * 100), "aria-label": label },
    h("div", { class: "bar-fill", style: { width: `${(f * 100).toFixed(1)}%` } }),
  );
}

/** Small inline SVG icons drawn here, so the table needs no icon font or image. */
export function icon(name, cls = "") {
  const svg = s("svg", { viewBox: "0 0 24 24", class: ["icon", `icon-${name}`, cls], "aria-hidden": "true" });
  const paths = {
    wings: "M12 14 C9 8 5 6 1 7 C3 9 4 11 4 13 C6 12 8 13 9 15 C10 14 11 14 12 14 Z M12 14 C15 8 19 6 23 7 C21 9 20 11 20 13 C18 12 16 13 15 15 C14 14 13 14 12 14 Z",
    eye: "M1 12 C5 5 19 5 23 12 C19 19 5 19 1 12 Z M12 8 A4 4 0 1 0 12.01 8 Z",
    mask: "M2 8 C6 6 18 6 22 8 C22 14 18 17 14 15 L12 13 L10 15 C6 17 2 14 2 8 Z M6 10 L10 11 L6 12 Z M18 10 L14 11 L18 12 Z",
    skull: "M12 2 C6 2 3 6 3 10 C3 13 5 15 7 15 L7 19 L17 19 L17 15 C19 15 21 13 21 10 C21 6 18 2 12 2 Z M8 9 A2 2 0 1 0 8.01 9 Z M16 9 A2 2 0 1 0 16.01 9 Z M10 21 L14 21 L14 23 L10 23 Z",
    worm: "M2 16 C5 10 8 10 10 14 C12 18 15 18 17 12 C18 9 21 8 22 10 L22 12 C21 11 19 12 18.5 14 C16.5 20 11.5 20 8.5 15.5 C7 13 5 13 3.5 17 Z",
    ground: "M1 23 C3 14 8 10 12 10 C16 10 21 14 23 23 Z M7 19 A1.5 1.5 0 1 0 7.01 19 Z M13 15 A1.5 1.5 0 1 0 13.01 15 Z M17 20 A1.5 1.5 0 1 0 17.01 20 Z",
    tick: "M3 13 L9 19 L21 5 L19 3 L9 15 L5 11 Z",
    sun: "M12 7 A5 5 0 1 0 12.01 7 Z M11 0 L13 0 L13 4 L11 4 Z M11 20 L13 20 L13 24 L11 24 Z M0 11 L4 11 L4 13 L0 13 Z M20 11 L24 11 L24 13 L20 13 Z",
    cog: "M10 1 L14 1 L14.5 4 L17 5.2 L19.6 3.4 L22.4 6.2 L20.6 8.8 L21.8 11.4 L24 12 L24 14 L21 14.6 L20 17 L21.8 19.6 L19 22.4 L16.4 20.6 L14 21.6 L13.5 24 L10.5 24 L10 21 L7.6 20 L5 21.8 L2.2 19 L4 16.4 L3 14 L0 13.5 L0 10.5 L3 10 L4 7.6 L2.2 5 L5 2.2 L7.6 4 L10 3 Z M12 8 A4 4 0 1 0 12.01 8 Z",
  };
  svg.append(s("path", { d: paths[name] || "", "fill-rule": "evenodd" }));
  return svg;
}

/** A pointer event's position in an SVG's own coordinates. */
export function svgPoint(svg, e) {
  const ctm = svg.getScreenCTM();
  if (!ctm) return [0, 0];
  const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(ctm.inverse());
  return [p.x, p.y];
}
