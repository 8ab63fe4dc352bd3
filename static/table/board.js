// The analysis board: the whole game is on the page once (the server hides what the step does
// not show); here ←/→ step one card, ↑/↓ one trick, Home and End jump to the ends, and a click on
// a step link (the navigation, the list of decisions, a point of the graph) shows that step
// without a request. Without JavaScript every step link loads its page.
// The ISS viewer sends one step at a time (each step is an exercise whose answer the next step
// would show): there the keys follow the navigation's links.

function boardSteps() {
  const data = document.getElementById("board-steps");
  return data ? JSON.parse(data.textContent) : null;
}

function showStep(board, steps, step, how) {
  const now = steps[step];
  if (!now) return;
  board.dataset.step = String(step);
  const show = (element, shown) => { element.hidden = !shown; };
  for (const card of board.querySelectorAll("[data-played]")) {
    const played = Number(card.dataset.played);
    // a card in a hand is there until it is played; a card on the table from its trick's start to its step
    show(card, card.closest(".table-trick") ? now.from <= played && played < step : played >= step);
  }
  const table = board.querySelector(".board-table");
  if (table) {
    show(table, now.from < step);
    const title = table.querySelector("[data-board-table]");
    if (title) title.textContent = now.table;
  }
  for (const decision of board.querySelectorAll("[data-decision]")) show(decision, Number(decision.dataset.decision) === step);
  for (const seat of board.querySelectorAll("[data-to-move]")) show(seat, now.to_move === Number(seat.dataset.toMove));
  for (const trick of board.querySelectorAll("[data-trick]")) show(trick, Number(trick.dataset.trick) < now.tricks);
  const tricks = board.querySelector(".table-tricks");
  if (tricks) show(tricks, now.tricks > 0);
  for (const frame of board.querySelectorAll("[data-frame]")) show(frame, Number(frame.dataset.frame) === step);
  const heading = document.getElementById("board-position");
  if (heading && now.title) heading.textContent = now.title;
  const live = board.querySelector("[data-board-live]");
  if (live) live.textContent = now.title;
  for (const link of document.querySelectorAll("nav[data-steps] a[data-go]")) {
    const target = steps[now.nav[Number(link.dataset.go)]];
    link.href = `${target.url}#${link.id}`;
  }
  for (const item of document.querySelectorAll("[data-step-item]")) {
    if (Number(item.dataset.stepItem) === step) item.setAttribute("aria-current", "step");
    else item.removeAttribute("aria-current");
  }
  const marker = document.querySelector("[data-graph-now]");
  if (marker) {
    const x = marker.dataset.xs.split(" ")[step];
    marker.setAttribute("x1", x);
    marker.setAttribute("x2", x);
  }
  // the ISS board's choice of seat keeps the step
  for (const input of document.querySelectorAll("form.board-seat input[name=schritt]")) input.value = String(step);
  history.replaceState(null, "", `${now.url}${how === "jump" ? "#board-position" : ""}`);
  if (how === "jump" && heading) heading.focus();
}

document.addEventListener("DOMContentLoaded", () => {
  for (const note of document.querySelectorAll(".board-keys")) note.hidden = false; // the keys work
  const steps = boardSteps();
  const board = document.querySelector("[data-board]");
  const go = (step, how) => showStep(board, steps, step, how);
  const current = () => Number(board.dataset.step);
  if (steps && board) {
    document.addEventListener("click", (event) => {
      if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
      const link = event.target instanceof Element ? event.target.closest("a[data-go], a[data-step]") : null;
      if (!link) return;
      event.preventDefault();
      if (link.dataset.go !== undefined) go(steps[current()].nav[Number(link.dataset.go)], "nav");
      else go(Number(link.dataset.step), "jump");
    });
    document.addEventListener("keydown", (event) => {
      if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
      const target = event.target;
      if (target instanceof HTMLElement && target.closest("input, select, textarea, button, [contenteditable]")) return;
      const link = document.querySelector(`nav[data-steps] a[data-key="${event.key}"]`);
      if (!link) return;
      event.preventDefault();
      go(steps[current()].nav[Number(link.dataset.go)], "key");
    });
  } else {
    document.addEventListener("keydown", (event) => {
      if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
      const target = event.target;
      if (target instanceof HTMLElement && target.closest("input, select, textarea, button, [contenteditable]")) return;
      const link = document.querySelector(`nav[data-steps] a[data-key="${event.key}"]`);
      if (!link) return;
      event.preventDefault();
      window.location.assign(link.href);
    });
  }
  // a page a step link led to without the script above (or the ISS viewer's exercises) keeps
  // the keyboard where it was: the fragment names the link used, or the position
  const id = decodeURIComponent(window.location.hash.slice(1));
  const place = id ? document.getElementById(id) : null;
  if (place && (place.closest("nav[data-steps]") || place.id === "board-position")) place.focus();
});
