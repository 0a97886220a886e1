// The create form's mistakes, said in words beside the field they are about:
// checked before sending, and a refusal of the server's (whose detail names a
// field as "body.options.no_progress_rounds: Input should be …") is put back
// beside its field in the same words, never shown raw.

// field id → the name the server's detail ends its path with, whether it must
// be whole, its bounds (min exclusive when `above`), and what to say.
const FIELDS = {
  "no-progress": { key: "no_progress_rounds", whole: true, min: 0, max: 1000,
    words: "Give a whole number of rounds from 0 to 1000 (0 turns the rule off)." },
  minutes: { key: "minutes", min: 0, above: true, max: 600, words: "Give the minutes each as a number above 0, at most 600." },
  increment: { key: "increment", min: 0, max: 300, words: "Give the increment as a number of seconds from 0 to 300." },
  days: { key: "days", min: 0, above: true, max: 30, words: "Give the days per move as a number above 0, at most 30." },
  name: { key: "name", words: "A name is at most 40 characters, without line breaks, and does not start or end with a space." },
};

const $ = (id) => document.getElementById(id);

function note(id) {
  let p = $(`${id}-error`);
  if (!p) {
    p = document.createElement("p");
    p.id = `${id}-error`;
    p.className = "field-error";
    $(id).insertAdjacentElement("afterend", p);
  }
  return p;
}

/** Says `words` beside the field `id` (or clears it with ""). */
function mark(id, words) {
  const input = $(id);
  const p = note(id);
  p.textContent = words;
  if (words) {
    input.setAttribute("aria-invalid", "true");
    input.setAttribute("aria-describedby", p.id);
  } else {
    input.removeAttribute("aria-invalid");
    input.removeAttribute("aria-describedby");
  }
}

function wrong(id, spec) {
  const input = $(id);
  if (!spec.min && spec.min !== 0) return false;
  const text = input.value.trim();
  const n = Number(text);
  if (text === "" || !Number.isFinite(n)) return true;
  if (spec.whole && !Number.isInteger(n)) return true;
  return (spec.above ? n <= spec.min : n < spec.min) || n > spec.max;
}

/** Checks the visible number fields; marks each wrong one; returns the first wrong field, or null. */
export function checkFields() {
  let first = null;
  for (const [id, spec] of Object.entries(FIELDS)) {
    const visible = $(id).offsetParent !== null;
    const bad = visible && wrong(id, spec);
    mark(id, bad ? spec.words : "");
    if (bad && !first) first = $(id);
  }
  return first;
}

/** A refusal whose detail names a field of the form: marked beside it, and the field
 * returned (to be focused); null when the detail names none. */
export function placeRefusal(detail) {
  const found = /^body\.(?:[\w.-]+\.)?(\w+): /.exec(detail || "");
  if (!found) return null;
  const entry = Object.entries(FIELDS).find(([, spec]) => spec.key === found[1]);
  if (!entry) return null;
  mark(entry[0], entry[1].words);
  return $(entry[0]);
}
