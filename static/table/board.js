// The analysis board: ← and → step one card, Home and End jump to the ends (the links work
// without JavaScript; this only follows them by key).
document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
  const target = event.target;
  if (target instanceof HTMLElement && target.closest("input, select, textarea, [contenteditable]")) return;
  const link = document.querySelector(`.board-nav a[data-key="${event.key}"]`);
  if (!link) return;
  event.preventDefault();
  window.location.assign(link.href);
});

// The page a step link of the board (or of the ISS viewer) led to keeps the keyboard where it was: on the same link of the
// navigation ("Karte vor" again with Enter), or on the position when a decision was chosen. The
// fragment names the place; the browser only scrolls there by itself.
document.addEventListener("DOMContentLoaded", () => {
  for (const note of document.querySelectorAll(".board-keys")) note.hidden = false; // the keys work
  const id = decodeURIComponent(window.location.hash.slice(1));
  const place = id ? document.getElementById(id) : null;
  if (place && (place.closest("nav[data-steps]") || place.id === "board-position")) place.focus();
});
