/// The inspector's page: one HTML document with its own style and script (no CDN: the machines reach none). It
/// opens `/events` (server-sent events): `state` (the tree, the windows drawn, the hosts) and `event` (each event as
/// `watch --json` prints it), and draws them.
enum InspectorPage {
    static let html = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <title>Containment inspector</title>
        <style>
          body { font: 13px/1.4 Helvetica, Arial, sans-serif; margin: 0; color: #212121; background: #f5f5f5; }
          header { display: flex; gap: 16px; align-items: baseline; padding: 8px 16px; background: #263238; color: #fff; }
          header h1 { font-size: 16px; margin: 0; }
          #status.live { color: #a5d6a7; } #status.down { color: #ef9a9a; }
          main { display: grid; grid-template-columns: minmax(260px, 1fr) minmax(360px, 2fr) minmax(240px, 1fr);
                 gap: 8px; padding: 8px; }
          section { background: #fff; border: 1px solid #e0e0e0; border-radius: 4px; padding: 8px; overflow: auto; }
          section h2 { font-size: 13px; margin: 0 0 6px; text-transform: uppercase; color: #546e7a; }
          ul.tree, ul.tree ul { list-style: none; margin: 0; padding-left: 14px; }
          ul.tree { padding-left: 0; }
          li > .row { cursor: pointer; padding: 1px 4px; border-radius: 3px; white-space: nowrap; }
          li > .row:hover, li.selected > .row { background: #e3f2fd; }
          .badge { display: inline-block; padding: 0 5px; border-radius: 8px; font-size: 11px; color: #fff; }
          .appeared { background: #2e7d32; } .appearing { background: #7cb342; }
          .disappearing { background: #ef6c00; } .disappeared { background: #9e9e9e; }
          .muted { color: #78909c; } .link { color: #6a1b9a; }
          #windows svg rect.view { cursor: pointer; }
          #windows svg rect.highlight { stroke: #d50000 !important; stroke-width: 4 !important; fill-opacity: 0.25; }
          #windows svg g.constraint { display: none; pointer-events: none; }
          #windows svg g.constraint.shown { display: inline; }
          #details pre { white-space: pre-wrap; font-size: 12px; }
          #bottom { display: grid; grid-template-columns: 3fr 1fr; gap: 8px; padding: 0 8px 8px; }
          table { border-collapse: collapse; width: 100%; font-size: 12px; }
          th, td { text-align: left; padding: 2px 6px; border-bottom: 1px solid #eeeeee; }
          tr.violation td { background: #ffebee; color: #b71c1c; }
          tr.gap td { background: #fff8e1; color: #e65100; font-style: italic; }
          #eventlist { max-height: 320px; overflow: auto; }
          .up { color: #2e7d32; } .down { color: #c62828; }
        </style>
        </head>
        <body>
        <header><h1>Containment inspector</h1>
          <span>seq <b id="seq">–</b></span><span>epoch <b id="epoch">–</b></span>
          <span id="status" class="down">connecting…</span></header>
        <main>
          <section><h2>Controllers</h2><ul id="controllers" class="tree"></ul></section>
          <section><h2>Windows</h2><div id="windows"></div></section>
          <section id="details"><h2>Selected</h2><div id="selected" class="muted">Hover or click a controller.</div></section>
        </main>
        <div id="bottom">
          <section><h2>Events</h2>
            <label>controller <input id="filter-controller" size="12"></label>
            <label>category <select id="filter-category"><option value="">all</option>
              <option>callbacks</option><option>structure</option><option>presentation</option>
              <option>containers</option><option>messages</option><option>input</option><option>runtime</option>
            </select></label>
            <div id="eventlist"><table id="events"><thead><tr><th>seq</th><th>category</th><th>event</th>
              <th>controller</th><th>details</th></tr></thead><tbody></tbody></table></div>
          </section>
          <section><h2>Hosts</h2><table id="hosts"><thead><tr><th>host</th><th>pid</th><th>state</th>
            <th>controllers</th></tr></thead><tbody></tbody></table></section>
        </div>
        <script>
        "use strict";
        let state = null, selected = null, hovered = null, hoveredView = null, lastSeq = null, inspected = null;
        const events = [], restarted = new Set();
        const el = (tag, props = {}, ...children) => {
          const node = document.createElement(tag);
          for (const [key, value] of Object.entries(props)) {
            if (key === "class") node.className = value; else if (key === "text") node.textContent = value;
            else node.setAttribute(key, value);
          }
          for (const child of children) node.append(child);
          return node;
        };
        function byId(id) { return state && state.tree.controllers.find(c => c.id === id); }
        function containerState(c) {
          const parts = [];
          if (c.kind === "navigation") parts.push("stack [" + c.children.join(", ") + "]");
          if (c.kind === "tab" || c.kind === "menu") parts.push("selected " + (c.selected ?? "none"));
          if (c.kind === "page") parts.push("pages [" + c.children.join(", ") + "]");
          if (c.kind === "menu") parts.push(c.menuVisible ? "menu shown" : "menu hidden");
          return parts.join(" · ");
        }
        function renderTree() {
          const list = document.getElementById("controllers");
          list.replaceChildren();
          const shown = new Set();
          const item = (id) => {
            const c = byId(id);
            if (!c || shown.has(id)) return null;
            shown.add(id);
            const row = el("span", { class: "row" },
              el("b", { text: c.id }), " ", el("span", { class: "muted", text: c.kind + " @" + c.host }), " ",
              el("span", { class: "badge " + c.appearance, text: c.appearance }));
            const extra = containerState(c);
            if (extra) row.append(" ", el("span", { class: "muted", text: extra }));
            if (c.presented) row.append(" ", el("span", { class: "link", text: "presents " + c.presented }));
            if (c.presenting) row.append(" ", el("span", { class: "link", text: "presented by " + c.presenting }));
            const li = el("li", { "data-id": c.id, class: c.id === selected ? "selected" : "" }, row);
            row.addEventListener("click", () => select(c.id));
            row.addEventListener("mouseenter", () => { hoveredView = null; hover(c.id); });
            const children = c.children.map(item).filter(Boolean);
            if (c.presented) { const p = item(c.presented); if (p) children.push(p); }
            if (children.length) li.append(el("ul", {}, ...children));
            return li;
          };
          for (const w of state.tree.windows) {
            const root = item(w.root);
            const head = el("li", {}, el("span", { class: "muted", text:
              "window " + w.name + " " + w.size.join("×") + " " + w.orientation }));
            if (root) head.append(el("ul", {}, root));
            list.append(head);
          }
          const loose = state.tree.controllers.filter(c => !shown.has(c.id) && !c.parent && !c.presenting);
          if (loose.length) {
            const head = el("li", {}, el("span", { class: "muted", text: "no window" }));
            head.append(el("ul", {}, ...loose.map(c => item(c.id)).filter(Boolean)));
            list.append(head);
          }
        }
        function renderWindows() {
          const box = document.getElementById("windows");
          box.innerHTML = state.svg;
          for (const rect of box.querySelectorAll("rect.view")) {
            rect.addEventListener("mouseenter", () => { hoveredView = rect.dataset.view; hover(rect.dataset.controller); });
            rect.addEventListener("click", () => select(rect.dataset.controller));
          }
          highlight();
        }
        function highlight() {
          const id = hovered ?? selected;
          for (const rect of document.querySelectorAll("#windows rect.view"))
            rect.classList.toggle("highlight", rect.dataset.controller === id);
          // The layout constraints (SPEC §16) of the view under the pointer, else of the controller's root view.
          const view = hovered && hoveredView ? hoveredView : id;
          for (const line of document.querySelectorAll("#windows g.constraint"))
            line.classList.toggle("shown", view != null && line.dataset.views.split(" ").includes(view));
        }
        function hover(id) { hovered = id; highlight(); renderDetails(); }
        function select(id) {
          selected = id; hovered = null; inspected = null; render();
          // What its actor received, as its host reports it (containment inspect).
          fetch("inspect/" + encodeURIComponent(id)).then(r => r.json()).then(answer => {
            if (selected === id) { inspected = answer; renderDetails(); }
          });
        }
        function renderDetails() {
          const id = hovered ?? selected, c = id && byId(id), box = document.getElementById("selected");
          if (!c) { box.textContent = "Hover or click a controller."; box.className = "muted"; return; }
          box.className = "";
          const fromActor = inspected && inspected.controller === id && !inspected.error;
          const callbacks = fromActor ? inspected.callbacks.slice(-12)
            : events.filter(e => e.controller === id && e.category === "callbacks").slice(-12);
          const heading = fromActor ? "callbacks its actor received (" + inspected.received + " in all, on "
            + inspected.host + ")" : "last callbacks (from the stream)";
          box.replaceChildren(
            el("h3", { text: c.id + " (" + c.kind + ")" }),
            el("div", { text: "host " + c.host + (c.pid ? " pid " + c.pid : "") }),
            el("div", { text: "parent " + (c.parent ?? "none") + " · children [" + c.children.join(", ") + "]" }),
            el("div", { text: "frame " + (c.frame ? c.frame.join(",") : "not loaded") }),
            el("div", {}, "appearance ", el("span", { class: "badge " + c.appearance, text: c.appearance })),
            el("h4", { text: "properties" }), el("pre", { text: JSON.stringify(c.properties, null, 1) }),
            el("h4", { text: heading }),
            el("ol", { id: "callbacks" }, ...callbacks.map(e => el("li", { text: "#" + e.seq + " " + e.event }))));
        }
        function renderHosts() {
          const body = document.querySelector("#hosts tbody");
          body.replaceChildren(...state.tree.hosts.map(h => el("tr", { "data-host": h.name },
            el("td", { text: h.name }), el("td", { text: String(h.pid) }),
            el("td", { class: h.up ? "up" : "down", text: (h.up ? "up" : "down") + (restarted.has(h.name) ? " (restarted)" : "") }),
            el("td", { text: String(state.tree.controllers.filter(c => c.host === h.name).length) }))));
        }
        function details(e) {
          const skip = new Set(["seq", "event", "controller", "time", "commandId", "category"]);
          return Object.entries(e).filter(([k]) => !skip.has(k)).map(([k, v]) => k + "=" + JSON.stringify(v)).join(" ");
        }
        function renderEvents() {
          const who = document.getElementById("filter-controller").value.trim();
          const category = document.getElementById("filter-category").value;
          const rows = [];
          for (const e of events.slice(-400)) {
            if (e.gap) { rows.push(el("tr", { class: "gap" }, el("td", { colspan: "5", text: "gap: " + e.gap })));
              continue; }
            if (who && e.controller !== who) continue;
            if (category && e.category !== category) continue;
            rows.push(el("tr", { class: e.event === "ruleViolation" ? "violation" : "" },
              el("td", { text: String(e.seq) }), el("td", { text: e.category }), el("td", { text: e.event }),
              el("td", { text: e.controller }), el("td", { text: details(e) })));
          }
          const list = document.getElementById("eventlist"), atBottom = list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
          document.querySelector("#events tbody").replaceChildren(...rows);
          if (atBottom) list.scrollTop = list.scrollHeight;
        }
        function render() {
          if (!state) return;
          document.getElementById("seq").textContent = String(state.seq);
          document.getElementById("epoch").textContent = String(state.epoch);
          renderTree(); renderWindows(); renderDetails(); renderHosts(); renderEvents();
        }
        document.getElementById("filter-controller").addEventListener("input", renderEvents);
        document.getElementById("filter-category").addEventListener("change", renderEvents);
        const source = new EventSource("events");
        source.addEventListener("open", () => { const s = document.getElementById("status"); s.textContent = "live"; s.className = "live"; });
        source.addEventListener("error", () => { const s = document.getElementById("status"); s.textContent = "reconnecting…"; s.className = "down"; });
        source.addEventListener("state", (message) => { state = JSON.parse(message.data); render(); });
        source.addEventListener("event", (message) => {
          const e = JSON.parse(message.data);
          if (lastSeq !== null && e.seq > lastSeq + 1) events.push({ gap: (lastSeq + 1) + "…" + (e.seq - 1) });
          if (lastSeq === null || e.seq > lastSeq) lastSeq = e.seq;
          if (e.event === "hostRestarted") restarted.add(e.controller || e.host);
          events.push(e);
          if (events.length > 2000) events.splice(0, events.length - 2000);
          if (state) renderEvents();
        });
        </script>
        </body>
        </html>
        """#
}
