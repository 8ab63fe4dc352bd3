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
