// Chimera tablebase explorer: the page over the tablebase API. It knows
// no rules: the server lists every legal move with the position it leads
// to, so the page only draws, sets up and follows moves.
"use strict";

const SVGNS = "http://www.w3.org/2000/svg";
const SQ = 60; // user units per square
const FILES = "abcdefghijklmnop";

const $ = (id) => document.getElementById(id);

const state = {
  variants: [],
  variant: null, // the variant's description from /api/variants
  board: {},     // square index -> FEN letter
  stm: "w",
  rest: "- - 0 1", // the FEN's fields after the side to move
  flipped: false,
  idx: 0,        // this position's place in the browser's history
  maxIdx: 0,     // the furthest place reached, for Forward
  answer: null,
  lastMove: null, // [from, to] square indices
  shown: null,   // the FEN whose answer is (being) shown
  practice: null,
  solution: false, // practising: the solution shown on request
  poll: null,
  request: 0,
};

// --- squares and FEN -------------------------------------------------------

function squareName(i) {
  const w = state.variant.width;
  return FILES[i % w] + String(Math.floor(i / w) + 1);
}

function parseSquare(s) {
  const m = /^([a-p])(\d{1,2})/.exec(s);
  if (!m) return null;
  const file = FILES.indexOf(m[1]), rank = parseInt(m[2], 10) - 1;
  return { index: rank * state.variant.width + file, length: m[0].length };
}

// uciSquares returns the from and to squares of a UCI move.
function uciSquares(uci) {
  const a = parseSquare(uci);
  if (!a) return null;
  let rest = uci.slice(a.length);
  if (rest[0] === "*") rest = rest.slice(1);
  const b = parseSquare(rest);
  return b ? [a.index, b.index] : null;
}

function parseFEN(fen) {
  const v = state.variant;
  const fields = fen.trim().split(/\s+/);
  const ranks = fields[0].split("/");
  if (ranks.length !== v.height) throw new Error("the board has " + ranks.length + " ranks, " + v.name + " has " + v.height);
  const board = {};
  ranks.forEach((row, r) => {
    const rank = v.height - 1 - r;
    let file = 0;
    for (let i = 0; i < row.length; i++) {
      const c = row[i];
      if (c >= "0" && c <= "9") {
        let n = c;
        while (i + 1 < row.length && row[i + 1] >= "0" && row[i + 1] <= "9") n += row[++i];
        file += parseInt(n, 10);
      } else if (/[A-Za-z]/.test(c)) {
        if (file >= v.width) throw new Error("rank " + (rank + 1) + " is too long");
        board[rank * v.width + file] = c;
        file++;
      }
    }
  });
  return { board, stm: fields[1] === "b" ? "b" : "w", rest: fields.slice(2).join(" ") || "- - 0 1" };
}

function boardFEN() {
  const v = state.variant;
  const rows = [];
  for (let rank = v.height - 1; rank >= 0; rank--) {
    let row = "", empty = 0;
    for (let file = 0; file < v.width; file++) {
      const pc = state.board[rank * v.width + file];
      if (!pc) { empty++; continue; }
      if (empty) { row += empty; empty = 0; }
      row += pc;
    }
    if (empty) row += empty;
    rows.push(row);
  }
  return rows.join("/") + " " + state.stm + " " + state.rest;
}

// --- the board -------------------------------------------------------------

function el(name, attrs, parent) {
  const e = document.createElementNS(SVGNS, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}

function pieceInfo(letter) {
  const up = letter.toUpperCase();
  return state.variant.pieces.find((p) => p.letter === up);
}

// drawPiece draws a piece centred at (x, y): a chess glyph for the
// standard pieces, a letter in a disc for fairy pieces.
function drawPiece(parent, letter, x, y, size) {
  const white = letter === letter.toUpperCase();
  const info = pieceInfo(letter);
  const colour = white ? "white" : "black";
  const g = el("g", { class: "piece", "data-piece": letter }, parent);
  if (info && info.glyph) {
    // The filled glyphs (U+265A...) for both sides, coloured by CSS.
    const filled = String.fromCodePoint(info.glyph.codePointAt(0) + 6);
    const t = el("text", { x, y: y + size * 0.04, class: "glyph " + colour, "font-size": size * 0.8 }, g);
    t.textContent = filled;
  } else {
    el("g", { class: "fairy " + colour }, g);
    const f = g.lastChild;
    el("circle", { cx: x, cy: y, r: size * 0.38 }, f);
    const t = el("text", { x, y: y + 1, "font-size": size * 0.42 }, f);
    t.textContent = letter.toUpperCase();
  }
  const title = el("title", {}, g);
  title.textContent = (white ? "white " : "black ") + (info ? info.name : letter);
  return g;
}

// squareXY returns the top-left corner of a square as drawn.
function squareXY(i) {
  const v = state.variant;
  let file = i % v.width, rank = Math.floor(i / v.width);
  if (state.flipped) { file = v.width - 1 - file; rank = v.height - 1 - rank; }
  return [file * SQ, (v.height - 1 - rank) * SQ];
}

function drawBoard() {
  const v = state.variant, svg = $("board");
  svg.textContent = "";
  svg.setAttribute("viewBox", "0 0 " + v.width * SQ + " " + v.height * SQ);
  const defs = el("defs", {}, svg);
  const marker = el("marker", { id: "head", markerWidth: 4, markerHeight: 4, refX: 2.2, refY: 2, orient: "auto" }, defs);
  el("path", { d: "M0,0 L4,2 L0,4 Z", class: "arrowhead" }, marker);
  for (let i = 0; i < v.width * v.height; i++) {
    const [x, y] = squareXY(i);
    const file = i % v.width, rank = Math.floor(i / v.width);
    const light = (file + rank) % 2 === 1;
    el("rect", { x, y, width: SQ, height: SQ, class: light ? "sq-light" : "sq-dark", "data-square": squareName(i) }, svg);
    if (state.lastMove && state.lastMove.includes(i)) el("rect", { x, y, width: SQ, height: SQ, class: "sq-last" }, svg);
    const cls = "coord " + (light ? "on-light" : "on-dark");
    const bottom = state.flipped ? rank === v.height - 1 : rank === 0;
    const left = state.flipped ? file === v.width - 1 : file === 0;
    if (bottom) el("text", { x: x + SQ - 9, y: y + SQ - 4, class: cls }, svg).textContent = FILES[file];
    if (left) el("text", { x: x + 3, y: y + 12, class: cls }, svg).textContent = String(rank + 1);
  }
  for (const sq in state.board) {
    const [x, y] = squareXY(+sq);
    const g = drawPiece(svg, state.board[sq], x + SQ / 2, y + SQ / 2, SQ);
    g.setAttribute("data-square", squareName(+sq));
    g.addEventListener("pointerdown", (e) => startDrag(e, +sq, state.board[sq]));
  }
  drawArrows(svg);
}

// drawArrows marks the best moves.
function drawArrows(svg) {
  const a = state.answer;
  if (!a || !a.moves.length || a.moves[0].category === "unknown" || a.moves[0].category === "win") return;
  if (state.practice && !state.solution) return; // the solution, only when asked
  const best = a.moves.filter((m) => m.category === a.moves[0].category && m.dtm === a.moves[0].dtm);
  for (const m of best.slice(0, 3)) {
    const sqs = uciSquares(m.uci);
    if (!sqs) continue;
    const [x1, y1] = squareXY(sqs[0]), [x2, y2] = squareXY(sqs[1]);
    const dx = x2 - x1, dy = y2 - y1, len = Math.hypot(dx, dy) || 1;
    const shorten = SQ * 0.3;
    el("line", {
      x1: x1 + SQ / 2, y1: y1 + SQ / 2,
      x2: x2 + SQ / 2 - (dx / len) * shorten, y2: y2 + SQ / 2 - (dy / len) * shorten,
      class: "arrow", "stroke-width": SQ * 0.14, "marker-end": "url(#head)", "data-uci": m.uci,
    }, svg);
  }
}

function drawPalette() {
  const pal = $("palette");
  pal.textContent = "";
  for (const colour of ["w", "b"]) {
    for (const p of state.variant.pieces) {
      const letter = colour === "w" ? p.letter : p.letter.toLowerCase();
      const svg = el("svg", { viewBox: "0 0 60 60", "data-piece": letter, role: "button", "aria-label": (colour === "w" ? "white " : "black ") + p.name }, null);
      drawPiece(svg, letter, 30, 30, 60);
      svg.addEventListener("pointerdown", (e) => startDrag(e, null, letter));
      pal.appendChild(svg);
    }
  }
}

// --- dragging ----------------------------------------------------------------

// startDrag follows a piece from a square (from) or the palette (from
// null) to where it is dropped: a legal move is played; anything else
// edits the position (off the board removes the piece).
function startDrag(e, from, letter) {
  if (e.button !== undefined && e.button !== 0) return;
  e.preventDefault();
  const svg = $("board");
  const ghost = document.createElementNS(SVGNS, "svg");
  ghost.setAttribute("viewBox", "0 0 60 60");
  const size = svg.getBoundingClientRect().width / state.variant.width;
  Object.assign(ghost.style, { position: "fixed", width: size + "px", height: size + "px", pointerEvents: "none", zIndex: 10 });
  drawPiece(ghost, letter, 30, 30, 60);
  document.body.appendChild(ghost);
  const source = e.currentTarget;
  if (from !== null) source.classList.add("dragging");
  const move = (ev) => {
    ghost.style.left = ev.clientX - size / 2 + "px";
    ghost.style.top = ev.clientY - size / 2 + "px";
  };
  move(e);
  const up = (ev) => {
    window.removeEventListener("pointermove", move);
    window.removeEventListener("pointerup", up);
    ghost.remove();
    source.classList.remove("dragging");
    drop(from, letter, squareAt(ev.clientX, ev.clientY));
  };
  window.addEventListener("pointermove", move);
  window.addEventListener("pointerup", up);
}

// squareAt returns the square under a screen point, or null off the board.
function squareAt(cx, cy) {
  const v = state.variant, r = $("board").getBoundingClientRect();
  let file = Math.floor(((cx - r.left) / r.width) * v.width);
  let row = Math.floor(((cy - r.top) / r.height) * v.height);
  if (file < 0 || row < 0 || file >= v.width || row >= v.height) return null;
  let rank = v.height - 1 - row;
  if (state.flipped) { file = v.width - 1 - file; rank = v.height - 1 - rank; }
  return rank * v.width + file;
}

function drop(from, letter, to) {
  if (from !== null && to === from) return;
  if (from !== null && to !== null && state.answer) {
    const uci = squareName(from) + squareName(to);
    const moves = state.answer.moves.filter((m) => uciSquares(m.uci) && uciSquares(m.uci).join() === [from, to].join());
    if (moves.length) {
      // A promotion dropped on the board becomes the strongest choice
      // listed first, the queen in chess.
      const queen = moves.find((m) => m.uci === uci + "q");
      play(queen || moves[0]);
      return;
    }
  }
  if (state.practice) {
    setStatus("In practice only legal moves are played.", true);
    drawBoard();
    return;
  }
  if (from !== null) delete state.board[from];
  if (to !== null) state.board[to] = letter;
  edited();
}

// --- positions and the API ---------------------------------------------------

// pageURL is the address of a position's page.
function pageURL(fen) {
  return "/?variant=" + encodeURIComponent(state.variant.name) + "&fen=" + encodeURIComponent(fen);
}

// visit shows a position as a new entry of the browser's history, so that
// Back and Forward (the browser's, the page's, the arrow keys) walk the
// moves and edits.
function visit(fen) {
  state.idx++;
  state.maxIdx = state.idx;
  history.pushState({ fen, variant: state.variant.name, idx: state.idx, lastMove: state.lastMove, flipped: state.flipped }, "", pageURL(fen));
  show(fen);
}

// edited starts from the set-up position.
function edited() {
  state.rest = "- - 0 1";
  state.lastMove = null;
  visit(boardFEN());
}

// setPosition opens a FEN (a new history entry unless replace).
// Underscores stand for spaces, as in the API's addresses (lichess's
// style: 8/8/8/8/8/2k5/8/KBN5_w_-_-_0_1); the page shows and links the
// FEN with spaces.
function setPosition(fen, replace) {
  fen = fen.trim().replace(/_/g, " ");
  let parsed;
  try {
    parsed = parseFEN(fen);
  } catch (err) {
    setStatus("Bad FEN: " + err.message, true);
    return;
  }
  Object.assign(state, parsed);
  state.lastMove = null;
  if (replace) {
    history.replaceState({ fen, variant: state.variant.name, idx: state.idx, lastMove: null }, "", pageURL(fen));
    show(fen);
    return;
  }
  visit(fen);
}

// play makes a listed move.
function play(m) {
  state.lastMove = uciSquares(m.uci);
  Object.assign(state, parseFEN(m.fen));
  if (state.practice) state.practice.moved(m);
  visit(m.fen);
}

// restore shows the position of a history entry (Back, Forward).
function restore(entry) {
  if (!entry || !entry.fen) return;
  if (state.practice) stopPractice("Practice ended: you left the line.");
  if (entry.variant !== state.variant.name) {
    const v = state.variants.find((x) => x.name === entry.variant);
    if (!v) return;
    state.variant = v;
    $("variant").value = v.name;
    drawPalette();
  }
  state.idx = entry.idx || 0;
  state.maxIdx = Math.max(state.maxIdx, state.idx);
  state.lastMove = entry.lastMove || null;
  Object.assign(state, parseFEN(entry.fen));
  show(entry.fen);
}

function go(delta) {
  if (state.practice) return;
  if (delta < 0 && state.idx > 0) history.back();
  if (delta > 0 && state.idx < state.maxIdx) history.forward();
}

// show draws a position and asks the API for its value.
async function show(fen) {
  $("fen").value = fen;
  $("side").textContent = state.stm === "w" ? "White to move" : "Black to move";
  $("back").disabled = state.idx <= 0 || !!state.practice;
  $("forward").disabled = state.idx >= state.maxIdx || !!state.practice;
  // Another position's answer goes at once: a move clicked in a stale
  // list would be played from the wrong position. (Asking again for the
  // same one, while its table builds, keeps it.)
  if (fen !== state.shown) {
    state.shown = fen;
    state.answer = null;
    $("moves").textContent = "";
    $("verdict").textContent = "…";
    $("verdict").className = "";
  }
  drawBoard();
  const ticket = ++state.request;
  clearTimeout(state.poll);
  let res, body;
  try {
    res = await fetch("/" + encodeURIComponent(state.variant.name) + "?fen=" + encodeURIComponent(fen));
    body = await res.json();
  } catch (err) {
    if (ticket === state.request) setStatus("The server did not answer: " + err.message, true);
    return;
  }
  if (ticket !== state.request) return; // a newer position was asked for
  if (res.status === 429 || res.status === 503) {
    // Too much asked for at once, or the server's queue is full: say so
    // and ask again when the server says to.
    setStatus(body.error + " (asking again in " + retryAfter(res) + " s)", true);
    state.poll = setTimeout(() => { if (ticket === state.request) show(fen); }, retryAfter(res) * 1000);
    return;
  }
  if (!res.ok) {
    $("verdict").textContent = "Not a position";
    $("verdict").className = "unknown";
    $("moves").textContent = "";
    setStatus(body.error || res.statusText, true);
    return;
  }
  state.answer = body;
  render(body);
  const b = body.building;
  if (body.category === "unknown" && b && (!b.error || b.state === "queue full")) {
    // A build under way is followed closely; a full queue, once a minute.
    const wait = b.error ? 60000 : 700;
    state.poll = setTimeout(() => { if (ticket === state.request) show(fen); }, wait);
  }
  if (state.practice) state.practice.answered(body);
}

// --- words -------------------------------------------------------------------

function sideName(stm) { return stm === "w" ? "White" : "Black"; }

// verdictWords says the position's value: "White mates in 30".
function verdictWords(a, stm) {
  const me = sideName(stm), other = sideName(stm === "w" ? "b" : "w");
  if (a.checkmate) return "Checkmate: " + other + " wins";
  if (a.variant_win) return me + " has won";
  if (a.variant_loss) return other + " has won";
  if (a.stalemate) return "Stalemate: draw";
  if (a.insufficient_material) return "Draw: insufficient material";
  const zeroing = a.dtz != null && a.dtz !== 0 ? " (" + Math.abs(a.dtz) + " plies to zeroing)" : "";
  switch (a.category) {
    case "win": return (a.dtm != null ? me + " mates in " + (a.dtm + 1) / 2 : me + " wins") + zeroing;
    case "loss": return (a.dtm != null ? other + " mates in " + -a.dtm / 2 : other + " wins") + zeroing;
    case "cursed-win": return me + " wins by force, but the fifty-move rule draws it" + zeroing;
    case "blessed-loss": return other + " wins by force, but the fifty-move rule saves " + me + zeroing;
    case "draw": return "Draw";
  }
  return "Unknown: no table for this position";
}

// moveWords values a move for the side making it.
function moveWords(m) {
  if (m.checkmate) return ["Checkmate", "win"];
  switch (m.category) {
    case "loss": return ["Win: mate in " + (2 - m.dtm) / 2, "win"];
    case "win": return ["Loss: mated in " + (m.dtm + 1) / 2, "loss"];
    case "draw": return [m.stalemate ? "Draw: stalemate" : "Draw", "draw"];
    case "blessed-loss": return ["Cursed win: the fifty-move rule draws", "draw"];
    case "cursed-win": return ["Blessed loss: the fifty-move rule draws", "draw"];
  }
  return ["Unknown", "unknown"];
}

function setStatus(text, error) {
  const s = $("status");
  s.textContent = text;
  s.className = error ? "error" : "";
}

function render(a) {
  const v = $("verdict");
  v.textContent = verdictWords(a, state.stm);
  v.className = a.category;
  setStatus("");
  if (a.building) {
    const b = a.building;
    const s = $("status");
    if (b.error) {
      setStatus(b.error, true);
    } else {
      s.textContent = (b.queued ? "Waiting to generate " : "Generating ") + b.table + "… ";
      const bar = document.createElement("progress");
      bar.max = 1;
      bar.value = b.progress;
      bar.setAttribute("aria-label", "generation progress");
      s.appendChild(bar);
      s.appendChild(document.createTextNode(" " + Math.round(b.progress * 100) + "%"));
    }
  }
  document.title = (a.table ? a.table + ": " : "") + verdictWords(a, state.stm).split(" (")[0] + " — Chimera tablebases";
  const link = $("material-link");
  link.textContent = "";
  if (a.table && a.table.replace("v", "").length <= state.variant.stats_pieces) {
    const l = document.createElement("a");
    l.href = "/" + encodeURIComponent(state.variant.name) + "/" + a.table;
    l.textContent = a.table + " statistics";
    link.appendChild(l);
  }
  $("index-link").href = "/" + encodeURIComponent(state.variant.name) + "/tables";
  $("index-link").textContent = "All " + state.variant.name + " tables";
  const list = $("moves");
  list.textContent = "";
  const first = a.moves[0];
  for (const m of a.moves) {
    const li = document.createElement("li");
    const [words, cls] = moveWords(m);
    li.className = cls;
    if (first && m.category !== "unknown" && m.category === first.category && m.dtm === first.dtm) li.classList.add("best");
    li.dataset.uci = m.uci;
    // A link to the position the move leads to: middle-click opens it,
    // a crawler follows it; a plain click plays the move here.
    const anchor = document.createElement("a");
    anchor.href = pageURL(m.fen);
    const san = document.createElement("span");
    san.className = "san";
    san.textContent = m.san;
    const val = document.createElement("span");
    val.className = "value " + cls;
    val.textContent = words;
    anchor.append(san, val);
    anchor.addEventListener("click", (e) => {
      if (e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
      e.preventDefault();
      play(m);
    });
    li.appendChild(anchor);
    list.appendChild(li);
  }
  $("practice").disabled = !state.practice && a.category !== "win";
  drawBoard();
}

// --- practice ------------------------------------------------------------------

// Practice: the user plays the winning side, the page defends with the
// longest resistance and counts the moves against the optimum.
function startPractice() {
  const a = state.answer;
  if (state.practice) { stopPractice("Practice ended."); return; }
  if (!a || a.category !== "win") return;
  const side = state.stm;
  const optimal = (a.dtm + 1) / 2;
  let used = 0;
  const report = $("practice-report");
  $("practice").textContent = "Stop practice";
  state.solution = false;
  $("solution").hidden = false;
  $("solution").textContent = "Show the solution";
  $("info").classList.add("practising");
  report.textContent = sideName(side) + " to mate in " + optimal + " against perfect defence." + hint(a);
  state.practice = {
    moved(m) {
      if (state.stm === side) return; // our defence
      used++;
      if (m.category !== "loss" && !m.checkmate) {
        stopPractice("That move lets the win slip (" + moveWords(m)[0].toLowerCase() + "). Back up and try again.");
      }
    },
    answered(ans) {
      if (ans.checkmate) {
        const extra = used - optimal;
        stopPractice("Mate in " + used + " moves; the optimum was " + optimal + (extra === 0 ? ": perfect!" : " (" + extra + " more)."));
        return;
      }
      if (halfmoves() >= 100) {
        stopPractice("Draw by the 50-move rule after " + used + " moves: mate sooner, driving the king to the right corner.");
        return;
      }
      if (state.stm !== side && ans.moves.length) {
        const reply = ans.moves[0]; // best first: the longest resistance
        setTimeout(() => { if (state.practice && state.answer === ans) play(reply); }, 400);
      } else if (state.stm === side) {
        report.textContent = "Move " + (used + 1) + ": " + verdictWords(ans, side) + " (optimum " + optimal + " moves in all)." + hint(ans);
      }
    },
  };
  drawBoard(); // without the arrows
}

// showSolution shows (or hides again) the ranked moves and the arrows
// while practising.
function showSolution() {
  state.solution = !state.solution;
  $("info").classList.toggle("practising", !state.solution);
  $("solution").textContent = state.solution ? "Hide the solution" : "Show the solution";
  drawBoard();
}

function stopPractice(text) {
  state.practice = null;
  state.solution = false;
  $("solution").hidden = true;
  $("info").classList.remove("practising");
  $("practice").textContent = "Practise this win";
  $("practice-report").textContent = text;
  $("back").disabled = state.idx <= 0;
  $("forward").disabled = state.idx >= state.maxIdx;
  if (state.variant) drawBoard();
}

// retryAfter reads a 429 or 503 answer's Retry-After, in seconds.
function retryAfter(res) {
  return Math.min(Math.max(parseInt(res.headers.get("Retry-After"), 10) || 5, 1), 300);
}

function halfmoves() {
  const f = state.rest.split(" ");
  return parseInt(f[f.length - 2], 10) || 0;
}

// hint gives the KBNK lesson of the second article.
function hint(a) {
  if (a.table !== "KBNvK") return "";
  return " Drive the king to a corner of the bishop's colour; mind the 50-move limit.";
}

// --- the material page ---------------------------------------------------------

async function showMaterial(variant, material) {
  $("explorer").hidden = true;
  $("material").hidden = false;
  $("variant").value = variant;
  $("material-title").textContent = variant + " " + material;
  document.title = variant + " " + material + " — Chimera tablebases";
  $("material-back").href = "/?variant=" + encodeURIComponent(variant);
  $("material-index").href = "/" + encodeURIComponent(variant) + "/tables";
  const res = await fetch("/api/stats/" + encodeURIComponent(variant) + "/" + encodeURIComponent(material));
  const body = await res.json();
  const status = $("material-status");
  if (res.status === 202) {
    const b = body.building;
    status.textContent = b ? (b.queued ? "Waiting to generate " : "Generating ") + b.table + "… " + Math.round(b.progress * 100) + "%" : "Counting positions…";
    setTimeout(() => showMaterial(variant, material), 700);
    return;
  }
  if (res.status === 429 || res.status === 503) {
    status.textContent = body.error + " (asking again in " + retryAfter(res) + " s)";
    status.className = "error";
    setTimeout(() => showMaterial(variant, material), retryAfter(res) * 1000);
    return;
  }
  if (!res.ok) {
    status.textContent = body.error;
    status.className = "error";
    return;
  }
  status.textContent = "";
  status.className = "";
  const root = $("material-body");
  root.textContent = "";
  const table = document.createElement("table");
  table.className = "stats";
  const head = ["Side to move", "Legal", "Won", "Drawn", "Lost", "Checkmated", "Stalemate", "Longest win"];
  table.innerHTML = "<tr>" + head.map((h) => "<th>" + h + "</th>").join("") + "</tr>";
  for (const s of body.sides) {
    const longest = s.win_plies.length ? s.win_plies[s.win_plies.length - 1][0] : 0;
    const tr = document.createElement("tr");
    for (const cell of [s.side, s.legal, s.win, s.draw, s.loss, s.checkmated, s.stalemate, longest ? "mate in " + (longest + 1) / 2 : "—"]) {
      const td = document.createElement(typeof cell === "string" && cell === s.side ? "th" : "td");
      td.textContent = typeof cell === "number" ? cell.toLocaleString("en") : cell;
      tr.appendChild(td);
    }
    table.appendChild(tr);
  }
  root.appendChild(scrolling(table));
  for (const s of body.sides) {
    if (!s.win_plies.length) continue;
    const h = document.createElement("h3");
    h.textContent = "Wins with " + s.side + " to move, by moves to mate";
    root.appendChild(h);
    root.appendChild(chart(s.win_plies.map(([p, n]) => [(p + 1) / 2, n])));
    if (s.longest.length) {
      const p = document.createElement("p");
      p.textContent = "The longest mates: ";
      s.longest.forEach((fen, i) => {
        const a = document.createElement("a");
        a.href = "/?variant=" + encodeURIComponent(variant) + "&fen=" + encodeURIComponent(fen);
        a.textContent = "#" + (i + 1);
        a.title = fen;
        p.append(a, " ");
      });
      root.appendChild(p);
    }
  }
}

// scrolling wraps a wide table so that it scrolls on its own on a narrow
// screen instead of widening the page.
function scrolling(table) {
  const wrap = document.createElement("div");
  wrap.className = "table-wrap";
  wrap.appendChild(table);
  return wrap;
}

// chart draws a histogram of [moves, positions] as SVG bars.
function chart(data) {
  const w = 720, h = 220, pad = 30;
  const svg = el("svg", { viewBox: "0 0 " + w + " " + h, class: "chart", role: "img", "aria-label": "histogram of distances to mate" }, null);
  const maxN = Math.max(...data.map((d) => d[1]));
  const maxM = Math.max(...data.map((d) => d[0]));
  const bw = (w - 2 * pad) / maxM;
  for (const [m, n] of data) {
    const bh = ((h - 2 * pad) * n) / maxN;
    const bar = el("rect", { x: pad + (m - 1) * bw + 1, y: h - pad - bh, width: Math.max(bw - 2, 1), height: bh, class: "bar" }, svg);
    el("title", {}, bar).textContent = "mate in " + m + ": " + n.toLocaleString("en") + " positions";
    if (m % 5 === 0 || m === 1 || m === maxM) el("text", { x: pad + (m - 0.5) * bw, y: h - pad + 12, "text-anchor": "middle" }, svg).textContent = m;
  }
  el("text", { x: pad, y: pad - 10 }, svg).textContent = maxN.toLocaleString("en") + " positions";
  return svg;
}

// --- the endgame index ---------------------------------------------------------

// sizeWords says a file's size.
function sizeWords(bytes) {
  if (bytes >= 1 << 30) return (bytes / (1 << 30)).toFixed(1) + " GiB";
  if (bytes >= 1 << 20) return (bytes / (1 << 20)).toFixed(1) + " MiB";
  return Math.max(1, Math.round(bytes / 1024)) + " KiB";
}

// showIndex lists a variant's tables: present, being built, buildable.
async function showIndex(variant) {
  $("explorer").hidden = true;
  $("index").hidden = false;
  $("variant").value = variant;
  $("index-back").href = "/?variant=" + encodeURIComponent(variant);
  $("index-title").textContent = variant + " endgame tables";
  document.title = variant + " endgame tables — Chimera tablebases";
  const status = $("index-status");
  const res = await fetch("/api/tables/" + encodeURIComponent(variant));
  const body = await res.json();
  if (!res.ok) {
    status.textContent = body.error;
    status.className = "error";
    return;
  }
  const present = body.tables.filter((t) => t.state === "present").length;
  status.textContent = present + " tables here" + (body.read_only ? "." : "; tables of up to " + body.build_pieces + " pieces are built on request.");
  const table = document.createElement("table");
  table.className = "stats index";
  table.innerHTML = "<tr><th>Table</th><th>Pieces</th><th>State</th><th>Size</th><th>Longest win</th></tr>";
  for (const t of body.tables) {
    const tr = document.createElement("tr");
    const name = document.createElement("th");
    const a = document.createElement("a");
    a.href = "/" + encodeURIComponent(variant) + "/" + t.material;
    a.textContent = t.material;
    name.appendChild(a);
    const where = t.state === "present" ? "here" : t.state === "running" ? "building " + Math.round(t.progress * 100) + "%" : t.state;
    const cells = [t.pieces, where, (t.state === "present" ? "" : "≈ ") + sizeWords(t.size), t.longest_win ? "mate in " + (t.longest_win + 1) / 2 : "—"];
    tr.appendChild(name);
    for (const c of cells) {
      const td = document.createElement("td");
      td.textContent = c;
      tr.appendChild(td);
    }
    if (t.error) tr.title = t.error;
    tr.className = "index-" + t.state.replace(" ", "-");
    table.appendChild(tr);
  }
  const root = $("index-body");
  root.textContent = "";
  root.appendChild(scrolling(table));
}

// --- start-up ------------------------------------------------------------------

function chooseVariant(name, fen, replace) {
  const v = state.variants.find((x) => x.name === name) || state.variants[0];
  state.variant = v;
  $("variant").value = v.name;
  drawPalette();
  setPosition(fen || v.example, replace);
}

// onKey: ← and → walk back and forward, f flips the board (not while
// typing in a box).
function onKey(e) {
  if (e.ctrlKey || e.metaKey || e.altKey || $("explorer").hidden) return;
  const tag = e.target.tagName;
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
  switch (e.key) {
    case "ArrowLeft": e.preventDefault(); go(-1); break;
    case "ArrowRight": e.preventDefault(); go(1); break;
    case "f": case "F": state.flipped = !state.flipped; drawBoard(); break;
  }
}

function wire() {
  $("variant").addEventListener("change", (e) => {
    if ($("explorer").hidden) {
      location.href = $("index").hidden ? "/?variant=" + encodeURIComponent(e.target.value) : "/" + encodeURIComponent(e.target.value) + "/tables";
      return;
    }
    stopPractice("");
    chooseVariant(e.target.value);
  });
  $("side").addEventListener("click", () => { state.stm = state.stm === "w" ? "b" : "w"; edited(); });
  $("flip").addEventListener("click", () => { state.flipped = !state.flipped; drawBoard(); });
  $("clear").addEventListener("click", () => { state.board = {}; edited(); });
  $("back").addEventListener("click", () => go(-1));
  $("forward").addEventListener("click", () => go(1));
  $("fen-form").addEventListener("submit", (e) => { e.preventDefault(); stopPractice(""); setPosition($("fen").value); });
  $("copy").addEventListener("click", () => {
    $("fen").select();
    if (navigator.clipboard) navigator.clipboard.writeText($("fen").value).catch(() => document.execCommand("copy"));
    else document.execCommand("copy");
  });
  $("move-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const text = $("move-input").value.trim().replace(/[+#!?]+$/, "");
    const a = state.answer;
    const m = a && a.moves.find((x) => x.uci === text || x.san.replace(/[+#]+$/, "") === text);
    if (!m) { setStatus("No legal move " + JSON.stringify(text) + " here.", true); return; }
    $("move-input").value = "";
    play(m);
  });
  $("practice").addEventListener("click", startPractice);
  $("solution").addEventListener("click", showSolution);
  document.addEventListener("keydown", onKey);
  window.addEventListener("popstate", (e) => restore(e.state));
}

async function main() {
  wire();
  const res = await fetch("/api/variants");
  state.variants = await res.json();
  const sel = $("variant");
  for (const v of state.variants) {
    const o = document.createElement("option");
    o.value = v.name;
    o.textContent = v.name + (v.tables ? "" : " (no tables)");
    sel.appendChild(o);
  }
  const parts = location.pathname.split("/").filter(Boolean);
  if (parts.length === 2 && parts[1] === "tables") {
    showIndex(decodeURIComponent(parts[0]));
    return;
  }
  if (parts.length === 2) {
    showMaterial(decodeURIComponent(parts[0]), decodeURIComponent(parts[1]));
    return;
  }
  const q = new URLSearchParams(location.search);
  const name = q.get("variant") || "chess";
  const entry = history.state;
  if (entry && entry.fen && entry.variant === (name === "standard" ? "chess" : name)) {
    // A reload keeps the place in the history.
    state.idx = entry.idx || 0;
    state.maxIdx = state.idx;
    state.flipped = !!entry.flipped;
  }
  chooseVariant(name === "standard" ? "chess" : name, q.get("fen"), true);
}

main();
