// Meeple Post sandbox: a small Discord-like client over the sandbox's JSON + websocket API.
// Plain JavaScript, no build step. Each tab plays as one person (?as=alice) and may switch.
"use strict";

const $ = (id) => document.getElementById(id);
const el = (tag, cls, text) => {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined && text !== null) node.textContent = text;
  return node;
};

const S = {
  world: null,
  people: [],          // the four people
  byId: new Map(),     // user id -> person (the bot included)
  channels: [],
  me: null,            // the current person
  channelId: null,     // the open channel
  commands: [],
  ws: null,
  seen: {},            // channel id -> newest message id seen (per person, in localStorage)
  counts: {},
  rendered: { main: new Map(), dm: new Map() },
  lastDmIds: null,
  cmd: null,           // {schema, values: {}, focused}
  popup: null,         // {kind, items, index, onPick}
  failures: new Map(), // message id -> error text, shown under its components for a while
  dismissed: new Set(), // ephemeral messages dismissed in this tab
  channelsKey: "",     // changes when the channel list does (a new thread), so channel links are redrawn
};

const SVG_EYE = '<svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true"><path fill="currentColor" d="M12 5C5.6 5 2 12 2 12s3.6 7 10 7 10-7 10-7-3.6-7-10-7zm0 11.5A4.5 4.5 0 1 1 12 7.5a4.5 4.5 0 0 1 0 9zm0-7a2.5 2.5 0 1 0 0 5 2.5 2.5 0 0 0 0-5z"/></svg>';
const SVG_CHEVRON = '<svg class="chevron" width="20" height="20" viewBox="0 0 24 24" aria-hidden="true"><path fill="currentColor" d="M7 10l5 5 5-5z"/></svg>';
const SVG_CHECK = '<svg width="12" height="12" viewBox="0 0 16 16" aria-hidden="true"><path fill="currentColor" d="M6.2 11.6 2.6 8l1.1-1.1 2.5 2.5 6.1-6.1 1.1 1.1z"/></svg>';
const BUTTON_STYLES = { 1: "primary", 2: "secondary", 3: "success", 4: "danger", 5: "link" };

// ---------------------------------------------------------------- start

async function boot() {
  const params = new URLSearchParams(location.search);
  const wanted = (params.get("as") || "").toLowerCase();
  // the channels this person may see: a private thread is listed to its members only
  const world = await (await fetch("api/world?as=" + encodeURIComponent(wanted))).json();
  S.world = world;
  S.people = world.people;
  for (const p of world.people) S.byId.set(p.id, p);
  S.byId.set(world.bot.id, world.bot);
  S.channels = world.channels;
  S.channelsKey = channelsKey(S.channels);
  S.commands = world.commands;
  $("guild-name").textContent = world.guild.name;
  $("guild-icon").title = world.guild.name;
  S.me = S.people.find((p) => p.username === wanted || p.id === wanted) || S.people[0];
  S.peopleKey = S.people.map((p) => p.id + ":" + p.name).join(",");
  const chan = params.get("channel");
  const found = S.channels.find((c) => c.id === chan || c.name === chan);
  S.channelId = (found || S.channels[0]).id;
  loadSeen();
  renderSwitcher();
  setupLanguage();
  setupRename();
  renderMe();
  renderChannelHeader();
  renderSidebar();
  setupComposer();
  setupLightbox();
  setupPanels();
  for (const scroller of document.querySelectorAll(".scroller")) {
    scroller.dataset.stick = "1";
    scroller.addEventListener("scroll", () => {
      const gap = scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight;
      scroller.dataset.stick = gap < 120 ? "1" : "0";
      if (gap < 120 && scroller.id === "scroller") $("jump-present").hidden = true;
    });
  }
  $("jump-present").addEventListener("click", () => {
    stickToBottom($("scroller"));
    $("jump-present").hidden = true;
  });
  connect();
}

function loadSeen() {
  try {
    S.seen = JSON.parse(localStorage.getItem("meeple-seen:" + S.me.id) || "{}");
  } catch (_) {
    S.seen = {};
  }
}

function saveSeen() {
  try {
    localStorage.setItem("meeple-seen:" + S.me.id, JSON.stringify(S.seen));
  } catch (_) { /* private mode */ }
}

function updateUrl() {
  const url = new URL(location.href);
  url.searchParams.set("as", S.me.username);
  const chan = S.channels.find((c) => c.id === S.channelId);
  url.searchParams.set("channel", chan ? chan.name : S.channelId);
  history.replaceState(null, "", url);
}

// ---------------------------------------------------------------- live updates

function connect() {
  const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + location.pathname.replace(/[^/]*$/, "") + "api/live");
  S.ws = ws;
  ws.onopen = () => {
    $("offline").hidden = true;
    subscribe(true);
  };
  ws.onmessage = (event) => {
    const data = JSON.parse(event.data);
    if (data.type === "view" && data.user_id === S.me.id) applyView(data);
  };
  ws.onclose = () => {
    $("offline").hidden = false;
    setTimeout(connect, 1000);
  };
}

function subscribe(force) {
  if (!S.ws || S.ws.readyState !== WebSocket.OPEN) return;
  S.ws.send(JSON.stringify({ user_id: S.me.id, channel_id: S.channelId, seen: S.seen, force: !!force }));
}

function channelsKey(channels) {
  return channels.map((c) => c.id + ":" + c.name).join(",");
}

function applyView(view) {
  if (view.people) applyPeople(view.people);
  if (view.channel_id === null && view.channels && !view.channels.some((c) => c.id === S.channelId)) {
    // this person may not see the open channel (another person's private thread): show the first one
    S.channels = view.channels;
    S.channelsKey = channelsKey(S.channels);
    openChannel(S.channels[0].id);
    return;
  }
  if (view.channel_id !== S.channelId) return;
  S.counts = view.counts;
  if (view.channels && JSON.stringify(view.channels) !== JSON.stringify(S.channels)) {
    // a thread the bot just created (or a private one this person was added to): list it, and
    // redraw messages that link to it
    S.channels = view.channels;
    S.channelsKey = channelsKey(S.channels);
    renderChannelHeader();
  }
  if (JSON.stringify(view.commands) !== JSON.stringify(S.commands)) S.commands = view.commands;
  const shown = view.messages.filter((m) => !S.dismissed.has(m.id));
  renderMessages($("messages"), $("scroller"), shown, S.rendered.main, false);
  renderDms(view.dm);
  let changed = false;
  const last = view.messages.length ? view.messages[view.messages.length - 1].id : null;
  if (last && S.seen[S.channelId] !== last && document.visibilityState !== "hidden") {
    S.seen[S.channelId] = last;
    changed = true;
  }
  const dmLast = view.dm.messages.length ? view.dm.messages[view.dm.messages.length - 1].id : null;
  S.dmChannelId = view.dm.channel_id;
  if (view.dm.channel_id && dmLast && S.seen[view.dm.channel_id] !== dmLast && dmsOnScreen()) {
    S.seen[view.dm.channel_id] = dmLast;
    changed = true;
  }
  if (changed) {
    saveSeen();
    subscribe(false);
  }
  renderSidebar();
  renderDmBadge();
  $("welcome").hidden = view.messages.length > 30;
}

// Someone renamed (in this tab or another): every name on the page follows.
function applyPeople(people) {
  const before = JSON.stringify(S.people);
  if (JSON.stringify(people) === before) return;
  for (const p of people) {
    const known = S.byId.get(p.id);
    if (known) Object.assign(known, p);
    else S.byId.set(p.id, p);
  }
  S.people = people.map((p) => S.byId.get(p.id));
  S.me = S.byId.get(S.me.id) || S.me;
  S.peopleKey = people.map((p) => p.id + ":" + p.name).join(",");
  renderSwitcher();
  renderMe();
  renderChannelHeader();
}

document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") subscribe(false);
});

// ---------------------------------------------------------------- who am I

function avatar(person, cls) {
  const node = el("div", "avatar" + (cls ? " " + cls : ""));
  node.style.background = person ? person.colour : "#5865f2";
  if (person && person.bot) {
    node.innerHTML = '<svg width="60%" height="60%" viewBox="0 0 24 24" aria-hidden="true"><path fill="#fff" d="M5 7h14a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V9a2 2 0 0 1 2-2zm3 4a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3zm8 0a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3zM11 2h2v4h-2z"/></svg>';
  } else {
    node.textContent = person ? person.name.slice(0, 1).toUpperCase() : "?";
  }
  return node;
}

function renderSwitcher() {
  const box = $("user-switch");
  box.textContent = "";
  for (const p of S.people) {
    const tab = el("button", "user-tab" + (p.id === S.me.id ? " current" : ""));
    tab.type = "button";
    tab.dataset.user = p.username;
    tab.setAttribute("role", "tab");
    tab.setAttribute("aria-selected", p.id === S.me.id ? "true" : "false");
    tab.title = p.id === S.me.id ? "You are " + p.name : "Play as " + p.name;
    tab.append(avatar(p), el("span", "user-tab-name", p.name));
    const link = el("a", "new-tab", "\u2197");
    link.href = "?as=" + encodeURIComponent(p.username);
    link.target = "_blank";
    link.rel = "noopener";
    link.title = "Open " + p.name + " in a new tab";
    link.addEventListener("click", (e) => e.stopPropagation());
    tab.append(link);
    tab.addEventListener("click", () => switchUser(p));
    box.append(tab);
  }
}

function renderMe() {
  const box = $("me-avatar");
  box.replaceWith(Object.assign(avatar(S.me, "small"), { id: "me-avatar" }));
  $("me-name").textContent = S.me.name;
  $("me-name").title = S.me.name;
  $("me-tag").textContent = S.me.username;
  $("dm-subtitle").textContent = "Your conversation with " + S.world.bot.name + " \u00b7 only " + S.me.name + " sees it";
  $("dm-empty").textContent =
    S.world.bot.name + " writes to " + S.me.name + " here: your hand when a game starts, and what you draw. " +
    "The other players never see it.";
  document.title = S.me.name + " \u00b7 Meeple Post sandbox";
  $("me-language").value = S.me.locale;
}

// Each person's Discord client language: the bot answers them in it, and remembers it for DMs.
function setupLanguage() {
  const picker = $("me-language");
  for (const locale of S.world.locales) picker.append(Object.assign(el("option", null, locale.label), { value: locale.value }));
  picker.addEventListener("change", async () => {
    const person = S.me;
    const answer = await post("api/locale", { user_id: person.id, locale: picker.value });
    if (answer.ok) {
      person.locale = answer.locale;
      // the commands and every timestamp are shown in the new language at once, as in Discord
      cancelCommand();
      clearRendered();
      subscribe(true);
    } else {
      picker.value = person.locale;
    }
  });
}

// Rename yourself, as in Discord's profile settings: any Unicode, emoji included.
function setupRename() {
  const button = $("me-rename");
  const form = $("rename-form");
  const input = $("rename-input");
  button.addEventListener("click", () => {
    form.hidden = false;
    input.value = S.me.name;
    $("rename-error").hidden = true;
    input.focus();
    input.select();
  });
  const close = () => {
    form.hidden = true;
  };
  input.addEventListener("keydown", (e) => {
    if (e.key === "Escape") {
      e.preventDefault();
      e.stopPropagation();
      close();
    }
  });
  $("rename-cancel").addEventListener("click", close);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const answer = await post("api/rename", { user_id: S.me.id, name: input.value });
    if (!answer.ok) {
      $("rename-error").textContent = answer.error;
      $("rename-error").hidden = false;
      return;
    }
    S.me.name = answer.name;
    close();
    renderSwitcher();
    renderMe();
    subscribe(true);
  });
}

function switchUser(person) {
  if (person.id === S.me.id) return;
  S.me = person;
  loadSeen();
  cancelCommand();
  clearRendered();
  renderSwitcher();
  renderMe();
  renderChannelHeader();
  updateUrl();
  subscribe(true);
}

function clearRendered() {
  for (const [key, map] of Object.entries(S.rendered)) {
    map.clear();
    $(key === "main" ? "messages" : "dm-messages").textContent = "";
  }
  S.lastMainId = null;
  $("jump-present").hidden = true;
  S.lastDmIds = null;
}

// ---------------------------------------------------------------- sidebar

function renderSidebar() {
  const list = $("channel-list");
  list.textContent = "";
  let mentions = 0;
  for (const c of S.channels) {
    const row = el("div", "channel" + (c.thread ? " thread" : ""));
    row.dataset.channelId = c.id;
    row.dataset.name = c.name;
    const count = S.counts[c.id] || { unread: 0, mentions: 0 };
    const current = c.id === S.channelId;
    if (current) row.classList.add("current");
    if (!current && count.unread) row.classList.add("unread");
    row.append(el("span", "icon", c.thread ? "\u21b3" : "#"), el("span", "label", c.name));
    if (c.private) {
      row.classList.add("private");
      row.append(Object.assign(el("span", "lock", "\u{1F512}"), { title: "Private thread: only its members see it" }));
    }
    if (!current && count.mentions) {
      row.append(el("span", "badge", String(count.mentions)));
      mentions += count.mentions;
    }
    row.addEventListener("click", () => openChannel(c.id));
    list.append(row);
  }
  document.title = (mentions ? "(" + mentions + ") " : "") + S.me.name + " \u00b7 Meeple Post sandbox";
}

function renderChannelHeader() {
  const c = S.channels.find((x) => x.id === S.channelId) || S.channels[0];
  $("channel-name").textContent = c.name;
  document.querySelector(".chat-header .hash").textContent = c.thread ? "\u21b3" : "#";
  $("channel-topic").textContent =
    c.topic || (c.thread ? (c.private ? "A private thread of #" : "A thread of #") + parentName(c) : "");
  $("composer-input").placeholder = "Message " + (c.thread ? "" : "#") + c.name;
  const w = $("welcome");
  w.textContent = "";
  w.append(el("div", "big-hash", c.thread ? "\u21b3" : "#"));
  w.append(el("h1", null, "Welcome to " + (c.thread ? "" : "#") + c.name + "!"));
  w.append(el("p", null, "This is the start of " + (c.thread ? "the thread " : "the #") + c.name + (c.thread ? "." : " channel.")));
  const other = S.people.find((p) => p.id !== S.me.id);
  const steps = el("ol", "steps");
  steps.innerHTML =
    "<li>Type <code>/table create</code>, pick a game, press Enter: a lobby appears.</li>" +
    "<li>Switch to <b>" + escapeHtml(other.name) + "</b> at the top (or open a new tab as " + escapeHtml(other.name) +
    ") and press <b>Join</b>.</li>" +
    "<li>Press <b>Start</b>. Hands arrive in each player's <b>Direct messages</b> (on the right, or behind the " +
    "speech-bubble button on a narrow screen).</li>" +
    "<li>Whoever the board mentions plays: public choices are buttons, your cards are under <b>My hand</b>.</li>";
  w.append(steps);
}

function parentName(c) {
  const parent = S.channels.find((x) => x.id === c.parent_id);
  return parent ? parent.name : "";
}

function openChannel(id, focusMessage) {
  closePanels();
  if (id !== S.channelId) {
    S.channelId = id;
    cancelCommand();
    S.rendered.main.clear();
    S.lastMainId = null;
    $("jump-present").hidden = true;
    $("messages").textContent = "";
    renderChannelHeader();
    renderSidebar();
    updateUrl();
    subscribe(true);
  }
  if (focusMessage) waitAndFlash(focusMessage, 0);
}

function waitAndFlash(messageId, tries) {
  const node = document.querySelector('#messages .message[data-id="' + messageId + '"]');
  if (node) {
    node.scrollIntoView({ block: "center" });
    node.classList.remove("flash");
    void node.offsetWidth;
    node.classList.add("flash");
  } else if (tries < 30) {
    setTimeout(() => waitAndFlash(messageId, tries + 1), 100);
  }
}

// ---------------------------------------------------------------- messages

function renderMessages(list, scroller, messages, rendered, isDm) {
  const nearBottom = scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 120;
  const wanted = new Set();
  let previous = null;
  let ownNew = false;
  const nodes = [];
  for (const m of messages) {
    const head = startsGroup(previous, m);
    const failure = S.failures.get(m.id) || "";
    const key = JSON.stringify(m) + "|" + head + "|" + failure + "|" + S.channelsKey + "|" + S.peopleKey + "|" + S.me.locale;
    let entry = rendered.get(m.id);
    if (!entry || entry.key !== key) {
      const node = drawMessage(m, head, failure);
      if (entry) entry.node.replaceWith(node);
      if (!entry && (m.ephemeral || (m.used && m.used.user_id === S.me.id) || m.author_id === S.me.id)) ownNew = true;
      if (!entry && isDm && S.lastDmIds && !S.lastDmIds.has(m.id)) node.classList.add("fresh");
      entry = { key, node };
      rendered.set(m.id, entry);
    }
    wanted.add(m.id);
    nodes.push(entry.node);
    previous = m;
  }
  for (const [id, entry] of rendered) {
    if (!wanted.has(id)) {
      entry.node.remove();
      rendered.delete(id);
    }
  }
  nodes.forEach((node, i) => {
    if (list.children[i] !== node) list.insertBefore(node, list.children[i] || null);
  });
  if (nearBottom || ownNew) stickToBottom(scroller);
  else if (!isDm && nodes.length && S.lastMainId && nodes[nodes.length - 1].dataset.id !== S.lastMainId) {
    $("jump-present").hidden = false;
  }
  if (!isDm) S.lastMainId = nodes.length ? nodes[nodes.length - 1].dataset.id : null;
}

function stickToBottom(scroller) {
  scroller.scrollTop = scroller.scrollHeight;
  scroller.dataset.stick = "1";
}

function startsGroup(previous, m) {
  if (!previous || m.used || previous.author_id !== m.author_id) return true;
  if (previous.ephemeral !== m.ephemeral) return true;
  return new Date(m.timestamp) - new Date(previous.timestamp) > 7 * 60 * 1000;
}

function formatTime(iso, short) {
  const d = new Date(iso);
  const locale = S.me.locale;
  const hm = d.toLocaleTimeString(locale, { hour: "2-digit", minute: "2-digit" });
  if (short) return hm;
  const today = new Date();
  if (d.toDateString() === today.toDateString()) {
    if (locale.startsWith("en")) return "Today at " + hm;
    const word = new Intl.RelativeTimeFormat(locale, { numeric: "auto" }).format(0, "day");
    return word.charAt(0).toUpperCase() + word.slice(1) + " " + hm;
  }
  return d.toLocaleDateString(locale) + " " + hm;
}

// Discord's <t:seconds:style> markup, written once in the reader's client language.
const TIME_STYLES = {
  t: { hour: "numeric", minute: "2-digit" },
  T: { hour: "numeric", minute: "2-digit", second: "2-digit" },
  d: { year: "numeric", month: "2-digit", day: "2-digit" },
  D: { year: "numeric", month: "long", day: "numeric" },
  f: { year: "numeric", month: "long", day: "numeric", hour: "numeric", minute: "2-digit" },
  F: { weekday: "long", year: "numeric", month: "long", day: "numeric", hour: "numeric", minute: "2-digit" },
};
const RELATIVE_UNITS = [["year", 31536000], ["month", 2592000], ["day", 86400], ["hour", 3600], ["minute", 60], ["second", 1]];

function discordTime(seconds, style) {
  const locale = S.me.locale;
  const when = new Date(seconds * 1000);
  if (style === "R") {
    const delta = seconds - Date.now() / 1000;
    const [unit, size] = RELATIVE_UNITS.find(([, size]) => Math.abs(delta) >= size) || RELATIVE_UNITS[5];
    return new Intl.RelativeTimeFormat(locale, { numeric: "always" }).format(Math.round(delta / size), unit);
  }
  return new Intl.DateTimeFormat(locale, TIME_STYLES[style] || TIME_STYLES.f).format(when);
}

function drawMessage(m, head, failure) {
  const author = S.byId.get(m.author_id) || { name: "Unknown", colour: "#747f8d" };
  const li = el("li", "message" + (head ? " head" : ""));
  li.dataset.id = m.id;
  if (m.ephemeral) li.classList.add("ephemeral");
  if (m.mentions_you) li.classList.add("mentions-you");
  if (m.used && head) {
    li.classList.add("has-used");
    const used = el("div", "used");
    const who = S.byId.get(m.used.user_id);
    used.append(el("span", "who", "@" + (who ? who.name : "someone")), el("span", null, "used"), el("span", "cmd", "/" + m.used.command));
    li.append(used);
  }
  if (head) {
    li.append(avatar(author));
    const meta = el("div", "meta");
    meta.append(el("span", "author", author.name));
    if (author.bot) {
      const tag = el("span", "bot-tag");
      tag.innerHTML = SVG_CHECK + "App";
      meta.append(tag);
    }
    const time = el("time", "time", formatTime(m.timestamp));
    time.dateTime = m.timestamp;
    meta.append(time);
    li.append(meta);
  } else {
    li.append(el("span", "side-time", formatTime(m.timestamp, true)));
  }
  if (m.loading) {
    const thinking = el("div", "thinking");
    thinking.append(el("span", null, author.name + " is thinking"));
    const dots = el("span", "dots");
    dots.append(el("i"), el("i"), el("i"));
    thinking.append(dots);
    li.append(thinking);
  } else if (m.content) {
    const content = el("div", "content");
    content.innerHTML = markdown(m.content);
    if (m.edited) content.append(el("span", "edited", "(edited)"));
    li.append(content);
  }
  for (const embed of m.embeds || []) li.append(drawEmbed(embed));
  if (m.attachments && m.attachments.length) li.append(drawAttachments(m.attachments));
  if (m.components && m.components.length) li.append(drawComponents(m, m.components));
  if (failure) {
    const f = el("div", "interaction-failed");
    f.innerHTML = '<svg width="14" height="14" viewBox="0 0 24 24" aria-hidden="true"><path fill="currentColor" d="M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20zm1 15h-2v-2h2zm0-4h-2V7h2z"/></svg>';
    f.append(el("span", null, failure));
    li.append(f);
  }
  if (m.ephemeral) {
    const note = el("div", "ephemeral-note");
    note.innerHTML = SVG_EYE;
    note.append(el("span", null, "Only you can see this \u2022 "));
    const dismiss = el("a", "dismiss", "Dismiss message");
    dismiss.addEventListener("click", () => {
      S.dismissed.add(m.id);
      subscribe(true);
    });
    note.append(dismiss);
    li.append(note);
  }
  return li;
}

function drawAttachments(attachments) {
  const box = el("div", "attachments");
  for (const a of attachments) {
    if (a.image) {
      const link = el("a", "attachment-image");
      link.href = a.url;
      const img = el("img");
      img.src = a.url;
      img.alt = a.description || a.filename;
      img.dataset.filename = a.filename;
      img.addEventListener("load", () => {
        const scroller = img.closest(".scroller");
        if (scroller && scroller.dataset.stick === "1") scroller.scrollTop = scroller.scrollHeight;
      });
      link.append(img);
      link.addEventListener("click", (e) => {
        e.preventDefault();
        openLightbox(a.url);
      });
      box.append(link);
    } else {
      const file = el("a", "attachment-file", a.filename);
      file.href = a.url;
      file.download = a.filename;
      box.append(file);
    }
  }
  return box;
}

function drawEmbed(embed) {
  const box = el("div", "embed");
  if (embed.color) box.style.borderLeftColor = "#" + Number(embed.color).toString(16).padStart(6, "0");
  if (embed.title) box.append(el("div", "embed-title", embed.title));
  if (embed.description) {
    const d = el("div", "embed-desc");
    d.innerHTML = markdown(embed.description);
    box.append(d);
  }
  if (embed.fields && embed.fields.length) {
    const fields = el("div", "embed-fields");
    for (const f of embed.fields) {
      const cell = el("div");
      cell.append(el("div", "embed-field-name", f.name));
      const v = el("div");
      v.innerHTML = markdown(f.value || "");
      cell.append(v);
      if (!f.inline) cell.style.gridColumn = "1 / -1";
      fields.append(cell);
    }
    box.append(fields);
  }
  return box;
}

// ---------------------------------------------------------------- components

function drawComponents(m, components) {
  const box = el("div", "components");
  for (const comp of components) {
    if (comp.type === 1) {
      const row = el("div", "row");
      for (const child of comp.components || []) row.append(drawComponent(m, child));
      box.append(row);
    } else if (comp.type === 10) {
      const text = el("div", "content");
      text.innerHTML = markdown(comp.content || "");
      box.append(text);
    } else {
      box.append(drawComponent(m, comp));
    }
  }
  return box;
}

function emojiText(emoji) {
  if (!emoji) return null;
  return emoji.name && !emoji.id ? emoji.name : ":" + (emoji.name || "emoji") + ":";
}

function drawComponent(m, comp) {
  if (comp.type === 2) return drawButton(m, comp);
  if ([3, 5, 6, 7, 8].includes(comp.type)) return drawSelect(m, comp);
  return el("span");
}

function drawButton(m, comp) {
  const style = BUTTON_STYLES[comp.style] || "secondary";
  const button = el(style === "link" ? "a" : "button", "dbutton " + style);
  const emoji = emojiText(comp.emoji);
  if (emoji) button.append(el("span", "emoji", emoji));
  if (comp.label) button.append(el("span", "label", comp.label));
  if (style === "link") {
    button.href = comp.url;
    button.target = "_blank";
    return button;
  }
  button.type = "button";
  button.dataset.customId = comp.custom_id;
  button.disabled = !!comp.disabled;
  button.addEventListener("click", async () => {
    if (button.classList.contains("pending")) return;
    button.classList.add("pending");
    await interact("api/click", { message_id: m.id, custom_id: comp.custom_id }, m.id);
    button.classList.remove("pending");
  });
  return button;
}

function drawSelect(m, comp) {
  const box = el("div", "dselect");
  box.dataset.customId = comp.custom_id;
  const head = el("button", "dselect-box");
  head.type = "button";
  head.disabled = !!comp.disabled;
  head.append(el("span", "placeholder", comp.placeholder || "Make a selection"));
  head.insertAdjacentHTML("beforeend", SVG_CHEVRON);
  box.append(head);
  const menu = el("div", "dselect-menu");
  menu.hidden = true;
  for (const opt of comp.options || []) {
    const row = el("div", "dselect-option");
    row.dataset.value = opt.value;
    const emoji = emojiText(opt.emoji);
    if (emoji) row.append(el("span", "emoji", emoji));
    const text = el("div");
    text.append(el("div", "opt-label", opt.label));
    if (opt.description) text.append(el("div", "opt-desc", opt.description));
    row.append(text);
    row.addEventListener("click", async (e) => {
      e.stopPropagation();
      closeMenus();
      head.querySelector(".placeholder").textContent = opt.label;
      box.classList.add("pending");
      await interact("api/select", { message_id: m.id, custom_id: comp.custom_id, values: [opt.value] }, m.id);
      box.classList.remove("pending");
    });
    menu.append(row);
  }
  box.append(menu);
  head.addEventListener("click", (e) => {
    e.stopPropagation();
    const open = !box.classList.contains("open");
    closeMenus();
    if (open) {
      box.classList.add("open");
      menu.hidden = false;
      const rect = head.getBoundingClientRect();
      box.classList.toggle("up", window.innerHeight - rect.bottom < 260 && rect.top > 260);
      menu.scrollTop = 0;
    }
  });
  return box;
}

function closeMenus() {
  for (const open of document.querySelectorAll(".dselect.open")) {
    open.classList.remove("open", "up");
    open.querySelector(".dselect-menu").hidden = true;
  }
}
document.addEventListener("click", closeMenus);

async function interact(url, body, messageId) {
  const answer = await post(url, Object.assign({ user_id: S.me.id }, body));
  if (!answer.ok) {
    S.failures.set(messageId, answer.failed ? "This interaction failed" : answer.error);
    subscribe(true);
    setTimeout(() => {
      S.failures.delete(messageId);
      subscribe(true);
    }, 6000);
  }
  return answer;
}

async function post(url, body) {
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    return await response.json();
  } catch (error) {
    return { ok: false, error: "The sandbox did not answer (" + error + ")" };
  }
}

// ---------------------------------------------------------------- DMs

function renderDms(dm) {
  $("dm-empty").hidden = dm.messages.length > 0;
  renderMessages($("dm-messages"), $("dm-scroller"), dm.messages, S.rendered.dm, true);
  S.lastDmIds = new Set(dm.messages.map((m) => m.id));
}

// ---------------------------------------------------------------- markdown (the part of Discord's the bot uses)

function escapeHtml(text) {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

function markdown(source) {
  const blocks = [];
  let text = source.replace(/```(?:[a-z0-9]*\n)?([\s\S]*?)```/g, (_, code) => {
    blocks.push("<pre><code>" + escapeHtml(code.replace(/\n$/, "")) + "</code></pre>");
    return "\u0000" + (blocks.length - 1) + "\u0000";
  });
  const lines = text.split("\n").map((line) => {
    let m;
    if ((m = line.match(/^(#{1,3}) (.*)$/))) return "<h" + m[1].length + ">" + inline(m[2]) + "</h" + m[1].length + ">";
    if ((m = line.match(/^-# (.*)$/))) return '<span class="subtext">' + inline(m[1]) + "</span>";
    if ((m = line.match(/^> ?(.*)$/))) return "<blockquote>" + inline(m[1]) + "</blockquote>";
    if ((m = line.match(/^\s*[-*] (.*)$/))) return "\u2022 " + inline(m[1]);
    return inline(line);
  });
  let html = "";
  lines.forEach((line, i) => {
    html += line;
    if (i < lines.length - 1 && !/<\/(h\d|blockquote)>$/.test(line)) html += "\n";
  });
  return html.replace(/\u0000(\d+)\u0000/g, (_, i) => blocks[Number(i)]);
}

function inline(raw) {
  const codes = [];
  let text = raw.replace(/`([^`]+)`/g, (_, code) => {
    codes.push("<code>" + escapeHtml(code) + "</code>");
    return "\u0001" + (codes.length - 1) + "\u0001";
  });
  const tokens = [];
  const keep = (html) => {
    tokens.push(html);
    return "\u0002" + (tokens.length - 1) + "\u0002";
  };
  text = text.replace(/<@!?(\d+)>/g, (_, id) => {
    const p = S.byId.get(id);
    return keep('<span class="mention">@' + escapeHtml(p ? p.name : "unknown-user") + "</span>");
  });
  text = text.replace(/<#(\d+)>/g, (_, id) => keep(channelMention(id, null)));
  // A command mention </table create:id>, shown as Discord shows it: in this person's language.
  text = text.replace(/<\/([^:<>]+):(\d+)>/g, (_, path) => {
    const c = S.commands.find((x) => x.name === path);
    return keep('<span class="mention command-mention" data-command="' + escapeHtml(path) + '">/' + escapeHtml(c ? tr(c, "name") : path) + "</span>");
  });
  text = text.replace(/<t:(-?\d+)(?::([tTdDfFR]))?>/g, (_, secs, style) => {
    const full = discordTime(Number(secs), "F");
    return keep('<span class="timestamp" title="' + escapeHtml(full) + '">' + escapeHtml(discordTime(Number(secs), style || "f")) + "</span>");
  });
  text = text.replace(/\[([^\]]+)\]\((https?:\/\/[^)\s]+)\)/g, (_, label, url) => keep(link(url, label)));
  text = text.replace(/<?(https?:\/\/[^\s<>]+[^\s<>.,:;"')\]])>?/g, (_, url) => keep(link(url, null)));
  text = escapeHtml(text);
  text = text
    .replace(/\*\*\*([^*]+)\*\*\*/g, "<strong><em>$1</em></strong>")
    .replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>")
    .replace(/__([^_]+)__/g, "<u>$1</u>")
    .replace(/(^|[^*])\*([^*\s][^*]*)\*/g, "$1<em>$2</em>")
    .replace(/(^|\W)_([^_\s][^_]*)_(?=\W|$)/g, "$1<em>$2</em>")
    .replace(/~~([^~]+)~~/g, "<s>$1</s>")
    .replace(/\|\|([^|]+)\|\|/g, "<span class=\"spoiler\">$1</span>");
  text = text.replace(/\u0002(\d+)\u0002/g, (_, i) => tokens[Number(i)]);
  return text.replace(/\u0001(\d+)\u0001/g, (_, i) => codes[Number(i)]);
}

// A channel as Discord's client writes a mention of it: its name when this person may see it
// (a private thread: its members), "No Access" otherwise.
function channelMention(id, messageId) {
  const c = S.channels.find((x) => x.id === id);
  if (!c) return '<span class="jump no-access" data-channel="' + id + '">#No Access</span>';
  const name = (c.thread ? "" : "#") + c.name + (messageId ? " \u203a message" : "");
  const message = messageId ? ' data-message="' + messageId + '"' : "";
  return '<a class="jump" data-channel="' + id + '"' + message + ">" + escapeHtml(name) + "</a>";
}

function link(url, label) {
  const jump = url.match(/^https:\/\/(?:\w+\.)?discord(?:app)?\.com\/channels\/[^/]+\/(\d+)(?:\/(\d+))?/);
  if (jump) {
    if (!label) return channelMention(jump[1], jump[2]);
    return '<a class="jump" data-channel="' + jump[1] + '" data-message="' + (jump[2] || "") + '">' + escapeHtml(label) + "</a>";
  }
  return '<a href="' + escapeHtml(url) + '" target="_blank" rel="noopener">' + escapeHtml(label || url) + "</a>";
}

document.addEventListener("click", (e) => {
  // A click on a command mention puts the command in the message box, as in Discord.
  const mentioned = e.target.closest && e.target.closest(".command-mention");
  const command = mentioned && S.commands.find((x) => x.name === mentioned.dataset.command);
  if (command) {
    e.preventDefault();
    pickCommand(command);
    return;
  }
  const jump = e.target.closest && e.target.closest("a.jump");
  if (!jump) return;
  e.preventDefault();
  const channel = S.channels.find((x) => x.id === jump.dataset.channel);
  if (channel) openChannel(channel.id, jump.dataset.message || null);
});

// ---------------------------------------------------------------- composer and slash commands

function setupComposer() {
  const input = $("composer-input");
  input.addEventListener("input", () => {
    clearError();
    if (!S.cmd && input.value.startsWith("/")) showCommandPopup(input.value.slice(1));
    else if (!S.cmd) hidePopup();
  });
  input.addEventListener("keydown", (e) => popupKeys(e) || composerKeys(e));
  // Enter sends the command, as in Discord, even from an "add an option" button (Space adds the
  // option); a missing required option is named instead.
  $("command-bar").addEventListener("keydown", (e) => {
    if (e.key !== "Enter" || !S.cmd || e.defaultPrevented) return;
    if (e.target.closest && e.target.closest(".opt-add, .command-cancel")) {
      e.preventDefault();
      submitComposer();
    }
  });
  $("composer").addEventListener("submit", (e) => {
    e.preventDefault();
    submitComposer();
  });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape") {
      closeLightbox();
      hidePopup();
    }
  });
}

function composerKeys(e) {
  if (e.key === "Escape" && S.cmd) {
    e.preventDefault();
    cancelCommand();
    return true;
  }
  if (e.key === "Backspace" && S.cmd && e.target.value === "" && e.target.id === "composer-input") {
    cancelCommand();
    return true;
  }
  return false;
}

function popupKeys(e) {
  const p = S.popup;
  if (!p || !p.items.length || e.isComposing) return false; // Enter that ends an IME composition (注音) is not a pick
  if (e.key === "ArrowDown" || e.key === "ArrowUp") {
    e.preventDefault();
    p.index = (p.index + (e.key === "ArrowDown" ? 1 : p.items.length - 1)) % p.items.length;
    highlightPopup();
    return true;
  }
  if (e.key === "Enter" || e.key === "Tab") {
    e.preventDefault();
    p.onPick(p.items[p.index]);
    return true;
  }
  return false;
}

// A command's, option's or choice's text in this person's client language, as Discord shows it
// (the bot's localization for that locale, else its default).
function tr(item, field) {
  const table = item[field + "_localizations"] || {};
  return table[S.me.locale] || item[field];
}

function commandMatches(c, query) {
  const names = [tr(c, "name").toLowerCase(), c.name];
  return names.some((name) => name.includes(query));
}

function showCommandPopup(typed) {
  const query = typed.toLowerCase().trim();
  const items = S.commands.filter((c) => commandMatches(c, query));
  items.sort((a, b) => Number(!tr(a, "name").toLowerCase().startsWith(query)) - Number(!tr(b, "name").toLowerCase().startsWith(query)));
  showPopup("Commands matching /" + typed, items, (c, row) => {
    row.dataset.command = c.name;
    row.append(avatar(S.world.bot));
    const text = el("div", "desc");
    text.append(el("span", "name", "/" + tr(c, "name")), el("span", null, "  " + tr(c, "description")));
    row.append(text, el("span", "source", S.world.bot.name));
  }, pickCommand);
}

function showPopup(title, items, draw, onPick) {
  const box = $("popup");
  box.textContent = "";
  box.append(el("div", "popup-title", title));
  if (!items.length) box.append(el("div", "popup-empty", "Nothing matches."));
  items.forEach((item, i) => {
    const row = el("div", "popup-item");
    row.dataset.index = String(i);
    draw(item, row);
    row.addEventListener("mousedown", (e) => {
      e.preventDefault();
      onPick(item);
    });
    box.append(row);
  });
  box.hidden = false;
  S.popup = { items, index: 0, onPick };
  highlightPopup();
}

function highlightPopup() {
  const rows = $("popup").querySelectorAll(".popup-item");
  rows.forEach((row, i) => row.classList.toggle("active", i === S.popup.index));
}

function hidePopup() {
  $("popup").hidden = true;
  S.popup = null;
}

function pickCommand(schema) {
  hidePopup();
  S.cmd = { schema, values: {} };
  const input = $("composer-input");
  input.value = "";
  input.placeholder = "Press Enter to send /" + tr(schema, "name");
  input.hidden = schema.options.length > 0;
  $("composer-box").classList.toggle("with-options", schema.options.length > 0);
  const bar = $("command-bar");
  bar.textContent = "";
  const chip = el("span", "command-chip", "/" + tr(schema, "name"));
  chip.dataset.command = schema.name;
  bar.append(chip);
  const fields = el("span", "opt-fields");
  bar.append(fields);
  let first = null;
  for (const opt of schema.options.filter((o) => o.required)) {
    const control = addField(opt, fields);
    if (!first && !S.cmd.values[opt.name]) first = control;
  }
  const optional = schema.options.filter((o) => !o.required);
  if (optional.length) {
    const extras = el("span", "opt-extras");
    extras.append(el("span", "opt-extras-title", "Optional:"));
    for (const opt of optional) {
      const chip = el("button", "opt-add", "+ " + tr(opt, "name"));
      chip.type = "button";
      chip.dataset.option = opt.name;
      chip.title = tr(opt, "description");
      chip.addEventListener("click", () => {
        chip.remove();
        if (!extras.querySelector(".opt-add")) extras.remove();
        addField(opt, fields).focus();
      });
      extras.append(chip);
    }
    bar.append(extras);
  }
  const cancel = el("button", "command-cancel", "\u00d7");
  cancel.type = "button";
  cancel.title = "Cancel (Esc)";
  cancel.addEventListener("click", cancelCommand);
  bar.append(cancel);
  bar.hidden = false;
  (first || (input.hidden ? bar.querySelector("select, input, button.opt-add") : input) || input).focus();
}

function addField(opt, fields) {
  const field = el("label", "opt-field" + (opt.required ? "" : " optional"));
  field.dataset.option = opt.name;
  field.title = tr(opt, "description") + (opt.required ? "" : " (optional)");
  field.append(el("span", "opt-name", tr(opt, "name")));
  let control;
  const setValue = (value) => {
    S.cmd.values[opt.name] = value;
    field.classList.remove("missing");
  };
  if (opt.choices.length) {
    control = el("select");
    const single = opt.required && opt.choices.length === 1;
    if (!single) control.append(new Option(opt.required ? "Choose\u2026" : "(none)", ""));
    for (const c of opt.choices) control.append(new Option(tr(c, "name"), String(c.value)));
    if (single) S.cmd.values[opt.name] = String(opt.choices[0].value);
    control.addEventListener("change", () => setValue(control.value));
  } else if (opt.type === 6 || opt.type === 7) {
    control = el("select");
    control.append(new Option("Choose\u2026", ""));
    const pool = opt.type === 6 ? S.people.map((p) => [p.id, "@" + p.name]) : S.channels.map((c) => [c.id, "#" + c.name]);
    for (const [value, label] of pool) control.append(new Option(label, value));
    control.addEventListener("change", () => setValue(control.value));
  } else if (opt.type === 5) {
    control = el("select");
    control.append(new Option("Choose\u2026", ""), new Option("True", "true"), new Option("False", "false"));
    control.addEventListener("change", () => setValue(control.value));
  } else {
    control = el("input");
    control.type = opt.type === 4 || opt.type === 10 ? "number" : "text";
    if (opt.min_value !== null && opt.min_value !== undefined) control.min = opt.min_value;
    if (opt.max_value !== null && opt.max_value !== undefined) control.max = opt.max_value;
    control.placeholder = opt.autocomplete ? "type to see choices" : "";
    control.addEventListener("input", () => {
      setValue(control.value);
      if (opt.autocomplete) requestChoices(opt, control);
    });
    control.addEventListener("focus", () => {
      if (opt.autocomplete) requestChoices(opt, control);
    });
    control.addEventListener("blur", () => setTimeout(() => S.popup && S.popup.kind === opt.name && hidePopup(), 150));
  }
  control.addEventListener("keydown", (e) => {
    if (e.isComposing) return;
    if (control.tagName === "INPUT" && popupKeys(e)) return;
    if (composerKeys(e)) return;
    if (e.key === "Enter") {
      e.preventDefault();
      submitComposer();
    }
  });
  control.dataset.option = opt.name;
  control.addEventListener("focus", () => {
    field.classList.add("focused");
    showHint(opt);
  });
  control.addEventListener("blur", () => {
    field.classList.remove("focused");
    $("option-hint").hidden = true;
  });
  field.append(control);
  fields.append(field);
  return control;
}

function showHint(opt) {
  const hint = $("option-hint");
  hint.textContent = "";
  const description = tr(opt, "description") || "";
  const optional = opt.required || /optional/i.test(description) ? "" : " (optional)";
  hint.append(el("b", null, tr(opt, "name")), el("span", null, " \u2014 " + description + optional));
  hint.hidden = false;
}

let choiceTimer = null;
let choiceTicket = 0;

function requestChoices(opt, control) {
  clearTimeout(choiceTimer);
  choiceTimer = setTimeout(async () => {
    if (!S.cmd) return; // the command was sent or cancelled meanwhile
    const ticket = ++choiceTicket;
    const answer = await post("api/autocomplete", {
      user_id: S.me.id,
      channel_id: S.channelId,
      command: S.cmd.schema.name,
      options: Object.assign({}, S.cmd.values, { [opt.name]: control.value }),
      focused: opt.name,
    });
    if (ticket !== choiceTicket || !S.cmd || document.activeElement !== control) return;
    const choices = answer.ok ? answer.choices : [];
    showPopup(answer.ok ? tr(opt, "name") + ": " + (tr(opt, "description") || "") : answer.error, choices, (c, row) => {
      row.classList.add("autocomplete-choice");
      row.dataset.value = String(c.value);
      row.append(el("span", "name", c.name));
    }, (c) => {
      control.value = String(c.value);
      S.cmd.values[opt.name] = String(c.value);
      hidePopup();
      control.focus();
    });
    S.popup.kind = opt.name;
  }, 120);
}

function cancelCommand() {
  S.cmd = null;
  hidePopup();
  const bar = $("command-bar");
  bar.hidden = true;
  bar.textContent = "";
  const input = $("composer-input");
  input.value = "";
  input.hidden = false;
  $("composer-box").classList.remove("with-options");
  $("option-hint").hidden = true;
  const c = S.channels.find((x) => x.id === S.channelId);
  input.placeholder = "Message " + (c && !c.thread ? "#" : "") + (c ? c.name : "");
  clearError();
}

function clearError() {
  $("composer-error").hidden = true;
}

function showError(text) {
  const box = $("composer-error");
  box.textContent = text;
  box.hidden = false;
}

async function submitComposer() {
  const input = $("composer-input");
  if (S.popup && S.popup.items.length && !S.cmd) {
    S.popup.onPick(S.popup.items[S.popup.index]);
    return;
  }
  if (S.cmd) {
    const missing = S.cmd.schema.options.filter((o) => o.required && !S.cmd.values[o.name]);
    if (missing.length) {
      for (const o of missing) document.querySelector('.opt-field[data-option="' + o.name + '"]').classList.add("missing");
      showError("Fill in " + missing.map((o) => tr(o, "name")).join(", ") + " first.");
      return;
    }
    const options = {};
    for (const [k, v] of Object.entries(S.cmd.values)) if (v !== "" && v !== undefined) options[k] = v;
    const name = S.cmd.schema.name;
    cancelCommand();
    const answer = await post("api/slash", { user_id: S.me.id, channel_id: S.channelId, command: name, options });
    if (!answer.ok) showError("/" + tr(S.commands.find((c) => c.name === name) || { name }, "name") + ": " + answer.error);
    input.focus();
    return;
  }
  const text = input.value.trim();
  if (!text) return;
  if (text.startsWith("/")) {
    const typed = text.slice(1).trim().toLowerCase();
    const exact = S.commands.find((c) => c.name === typed || tr(c, "name").toLowerCase() === typed);
    if (exact) pickCommand(exact);
    else showError("No command " + text + ". Type / to see the commands.");
    return;
  }
  input.value = "";
  const answer = await post("api/send", { user_id: S.me.id, channel_id: S.channelId, content: text });
  if (!answer.ok) showError(answer.error);
}

// ---------------------------------------------------------------- panels on a narrow screen

const NARROW_DMS = window.matchMedia("(max-width: 1000px)");
const NARROW_CHANNELS = window.matchMedia("(max-width: 700px)");

function setupPanels() {
  $("open-channels").addEventListener("click", () => togglePanel("channels-open"));
  $("open-dms").addEventListener("click", () => togglePanel("dms-open"));
  $("close-dms").addEventListener("click", closePanels);
  $("backdrop").addEventListener("click", closePanels);
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape") closePanels();
  });
  const widened = () => {
    if (!NARROW_DMS.matches) document.body.classList.remove("dms-open");
    if (!NARROW_CHANNELS.matches) document.body.classList.remove("channels-open");
    syncPanels();
  };
  NARROW_DMS.addEventListener("change", widened);
  NARROW_CHANNELS.addEventListener("change", widened);
}

function togglePanel(name) {
  const open = !document.body.classList.contains(name);
  closePanels();
  if (open) document.body.classList.add(name);
  syncPanels();
  if (name === "dms-open" && open) {
    stickToBottom($("dm-scroller"));
    subscribe(false);
  }
}

function closePanels() {
  document.body.classList.remove("channels-open", "dms-open");
  syncPanels();
}

function syncPanels() {
  $("open-channels").setAttribute("aria-expanded", String(document.body.classList.contains("channels-open")));
  $("open-dms").setAttribute("aria-expanded", String(document.body.classList.contains("dms-open")));
  if (dmsOnScreen() && S.dmChannelId) {
    // the direct messages are read once they are on screen
    const last = S.rendered.dm.size ? [...S.rendered.dm.keys()].pop() : null;
    if (last && S.seen[S.dmChannelId] !== last) {
      S.seen[S.dmChannelId] = last;
      saveSeen();
      subscribe(false);
    }
  }
  renderDmBadge();
}

function dmsOnScreen() {
  return !NARROW_DMS.matches || document.body.classList.contains("dms-open");
}

function renderDmBadge() {
  const badge = $("dm-badge");
  const count = S.dmChannelId && S.counts[S.dmChannelId] ? S.counts[S.dmChannelId].unread : 0;
  badge.hidden = !count || dmsOnScreen();
  badge.textContent = String(count);
  $("open-dms").title = count ? "Direct messages (" + count + " new)" : "Direct messages";
}

// ---------------------------------------------------------------- lightbox

function setupLightbox() {
  $("lightbox").addEventListener("click", (e) => {
    if (e.target.id !== "lightbox-open") closeLightbox();
  });
}

function openLightbox(url) {
  $("lightbox-img").src = url;
  $("lightbox-open").href = url;
  $("lightbox").hidden = false;
}

function closeLightbox() {
  $("lightbox").hidden = true;
}

boot();
