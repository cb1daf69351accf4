// "Try it": a form per method, built from #try-data (html/try_it.rs says its shape). Send
// POSTs the JSON-RPC request to the node URL of the sidebar (remembered in localStorage) plus
// the interface's path, and shows the reply. Nothing is fetched until Send (or "Fill the forms
// from this node") is pressed.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("try-data").textContent);
  var nodeInput = document.getElementById("node-url");
  var KEY = "avalanche-rpc.node-url";
  var nextId = 1;
  var refreshers = [];
  var fillers = []; // one per form: fills it from a harvest (Fill forms, below)
  try { if (localStorage.getItem(KEY)) nodeInput.value = localStorage.getItem(KEY); } catch (e) { /* storage off */ }
  nodeInput.addEventListener("input", function () {
    try { localStorage.setItem(KEY, nodeInput.value.trim()); } catch (e) { /* storage off */ }
    refreshers.forEach(function (f) { f(); });
  });

  function el(tag, className, text) {
    var e = document.createElement(tag);
    if (className) e.className = className;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function code(text) { return el("code", null, text); }
  function line(parent, parts) {
    parts.forEach(function (p) { parent.appendChild(typeof p === "string" ? document.createTextNode(p) : p); });
    return parent;
  }

  // A param's value as the field shows it: strings bare in string fields, else JSON.
  function shown(p, v) {
    if (v === undefined) return "";
    if (p.string && typeof v === "string") return v;
    var s = JSON.stringify(v);
    return s.length > 72 ? JSON.stringify(v, null, 2) : s;
  }
  // A field's value to send: undefined when empty (left out); a string field's bare text is
  // the string (text starting with a quote is read as JSON); anything else must be JSON.
  // `what` names it in the error: 'the field "height"', 'the params'.
  function read(what, p, text) {
    var t = text.trim();
    if (t === "") return undefined;
    if (p && p.string && t.charAt(0) !== "\"") return t;
    try { return JSON.parse(t); } catch (e) { throw new Error(what + " is not valid JSON: " + e.message); }
  }

  // One labelled row: name, a note on its type, the input.
  function row(form, name, note, input) {
    var label = el("label", "try-field");
    var head = el("span", "try-name");
    head.appendChild(code(name));
    head.appendChild(el("span", "try-note", note));
    label.appendChild(head);
    label.appendChild(input);
    form.appendChild(label);
    return input;
  }

  function build(section, method, m) {
    var vars = data.paths[m.path] || [];
    var details = el("details", "try");
    var summary = el("summary", null, "Try it");
    if (m.changesState) summary.appendChild(el("span", "badge badge-state", "changes state"));
    details.appendChild(summary);
    var form = el("form", "try-form");
    form.noValidate = true;
    details.appendChild(form);

    var varInputs = vars.map(function (v) {
      var input = el("input");
      input.value = v.value;
      input.setAttribute("data-var", v.name);
      input.spellcheck = false;
      if (v.examples.length) {
        var list = el("datalist");
        list.id = "try-" + method + "-" + v.name;
        v.examples.forEach(function (x) { var o = el("option"); o.value = x; list.appendChild(o); });
        form.appendChild(list);
        input.setAttribute("list", list.id);
      }
      input.addEventListener("input", refresh);
      return row(form, "{" + v.name + "}", "in the path", input);
    });

    var fields = el("div", "try-fields");
    form.appendChild(fields);
    if (!m.params.length) fields.appendChild(el("p", "muted small", "No params: sends {}."));
    var inputs = m.params.map(function (p) {
      var value = shown(p, p.example);
      var input = el(p.string ? "input" : "textarea");
      if (!p.string) input.rows = Math.min(10, value.split("\n").length);
      input.value = value;
      input.spellcheck = false;
      input.setAttribute("data-param", p.name);
      return row(fields, p.name, p.type + (p.string ? " · text, no quotes" : " · JSON") + (p.optional ? " · optional" : ""), input);
    });
    if (m.params.length) fields.appendChild(el("p", "muted small", "Empty fields are left out."));

    var rawLabel = el("label", "try-raw-label");
    var rawToggle = el("input", "try-raw-toggle");
    rawToggle.type = "checkbox";
    line(rawLabel, [rawToggle, " Edit the params as one JSON object"]);
    form.appendChild(rawLabel);
    var raw = el("textarea", "try-raw");
    raw.spellcheck = false;
    raw.hidden = true;
    form.appendChild(raw);

    var bar = el("div", "try-bar");
    var send = el("button", "try-send", m.changesState ? "Send (changes state)" : "Send");
    send.type = "submit";
    if (m.changesState) send.classList.add("is-changing");
    var target = el("code", "try-target");
    line(bar, [send, target]);
    form.appendChild(bar);
    var out = el("div", "try-out");
    out.setAttribute("aria-live", "polite");
    out.hidden = true;
    form.appendChild(out);
    section.appendChild(details);

    function address() {
      var path = m.path;
      varInputs.forEach(function (i) {
        path = path.replace("{" + i.getAttribute("data-var") + "}", encodeURIComponent(i.value.trim()));
      });
      return nodeInput.value.trim().replace(/\/+$/, "") + path;
    }
    function refresh() { target.textContent = "POST " + address(); }
    refresh();
    refreshers.push(refresh);
    // From the node: the path variables of the first path that answered, and each param
    // the example gives (or that is required) a harvested value of its name and form.
    fillers.push(function (h) {
      var path = h.pathOf(m), filled = 0;
      var values = harvestNode.pathValues(m.path, path);
      varInputs.forEach(function (i) { var v = values[i.getAttribute("data-var")]; if (v !== undefined) i.value = v; });
      refresh();
      m.params.forEach(function (p, n) {
        if (p.example === undefined && p.optional) return;
        // What the node answered while harvesting, else the best harvested value.
        var v = (h.worked[method] || {})[p.name];
        if (v === undefined) v = h.valueFor(p, path, p.example, true);
        if (v === undefined) v = h.valueFor(p, path, p.example, false);
        if (v === undefined && p.example !== undefined) v = harvestNode.warpMessage(h, p.example);
        if (v === undefined) return;
        inputs[n].value = shown(p, v);
        filled++;
      });
      return filled;
    });

    // The params from the fields; throws naming the first field that is not valid JSON.
    function fromFields() {
      var params = {};
      m.params.forEach(function (p, n) {
        var v = read("the field \"" + p.name + "\"", p, inputs[n].value);
        if (v !== undefined) params[p.name] = v;
      });
      return params;
    }
    rawToggle.addEventListener("change", function () {
      try {
        if (rawToggle.checked) {
          raw.value = JSON.stringify(fromFields(), null, 2);
          raw.rows = Math.min(16, raw.value.split("\n").length + 1);
        } else {
          var obj = read("the params object", null, raw.value || "{}");
          if (obj === null || typeof obj !== "object" || Array.isArray(obj)) throw new Error("the params must be a JSON object to go back to the fields.");
          var unknown = Object.keys(obj).filter(function (k) { return !m.params.some(function (p) { return p.name === k; }); });
          if (unknown.length) throw new Error("no field for " + unknown.join(", ") + ": remove it to go back to the fields.");
          m.params.forEach(function (p, n) { inputs[n].value = shown(p, obj[p.name]); });
        }
        fields.hidden = rawToggle.checked;
        raw.hidden = !rawToggle.checked;
        out.hidden = true;
      } catch (e) {
        rawToggle.checked = !rawToggle.checked;
        report("refused", "Not switched: " + e.message);
      }
    });

    function report(kind, status, body, extra) {
      out.hidden = false;
      out.className = "try-out try-" + kind;
      out.textContent = "";
      out.appendChild(el("p", "try-status", status));
      if (body !== undefined) out.appendChild(el("pre", "code try-reply", body));
      if (extra) out.appendChild(extra);
    }

    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      var params;
      try {
        params = rawToggle.checked ? read("the params object", null, raw.value) : fromFields();
        if (params === undefined) throw new Error("the params are empty: write {} for none.");
      } catch (e) {
        report("refused", "Not sent: " + e.message);
        return;
      }
      var to = address();
      if (!/^https?:\/\//i.test(to)) {
        report("refused", "Not sent: the node URL (top of the sidebar) must start with http:// or https://.");
        return;
      }
      if (m.positional && params !== null && typeof params === "object" && !Array.isArray(params)) {
        // Positional params (`eth_…`): an array in declared order, trailing absent ones left out.
        var list = m.params.map(function (p) { return params[p.name] === undefined ? null : params[p.name]; });
        while (list.length && list[list.length - 1] === null) list.pop();
        params = list;
      }
      var request = { jsonrpc: "2.0", id: nextId++, method: method, params: params };
      var sent = el("details", "try-sent");
      line(sent, [el("summary", null, "Request sent"), el("pre", "code", "POST " + to + "\n" + JSON.stringify(request, null, 2))]);
      var started = performance.now();
      send.disabled = true;
      report("pending", "Sending…");
      fetch(to, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(request) })
        .then(function (r) {
          return r.text().then(function (text) {
            var took = Math.round(performance.now() - started) + " ms";
            var http = "HTTP " + r.status + (r.statusText ? " " + r.statusText : "");
            var reply = null;
            try { reply = JSON.parse(text); } catch (e) { /* shown as text */ }
            if (reply === null || typeof reply !== "object") reply = null;
            if (reply && reply.error !== undefined) {
              var err = reply.error || {};
              report("error", "JSON-RPC error " + err.code + ": " + err.message + " · " + http + " · " + took, JSON.stringify(reply, null, 2), sent);
            } else if (reply && "result" in reply) {
              report("result", "Result · " + http + " · " + took, JSON.stringify(reply, null, 2), sent);
            } else {
              report("refused", "Not a JSON-RPC reply · " + http + " · " + took, text || "(empty body)", sent);
            }
          });
        })
        .catch(function (e) {
          var took = Math.round(performance.now() - started) + " ms";
          report("unreachable", "No reply · " + took + " · " + e.name + ": " + e.message, undefined, unreachable(to, sent));
        })
        .then(function () { send.disabled = false; });
    });
  }

  // Why fetch threw: the browser could not connect, or refused to hand over the reply (CORS).
  function unreachable(to, sent) {
    var origin = location.protocol === "file:" ? "null" : location.origin;
    var box = el("div", "try-why");
    box.appendChild(line(el("p"), ["The browser could not reach ", code(to), ", or it refused to let this page read the reply (its console says which). Either:"]));
    var ul = el("ul");
    ul.appendChild(line(el("li"), [
      el("strong", null, "CORS: "), "the node does not allow this page's origin, ", code(origin),
      location.protocol === "file:" ? " (a page opened from a file has origin null)" : "",
      ". Start it with ", code("--http-allowed-origins=" + origin), " (listed among any others) or ",
      code("--http-allowed-origins=*"), ", the default of avalanchego and avalanche-devnet.",
    ]));
    ul.appendChild(line(el("li"), [
      el("strong", null, "Not running: "), "no node answers at ", code(nodeInput.value.trim()),
      ". Check the node URL at the top of the sidebar, and the node's ", code("--http-port"),
      " (and ", code("--http-host"), " when it is on another machine).",
    ]));
    if (location.protocol === "https:" && /^http:/i.test(to)) {
      ul.appendChild(line(el("li"), [el("strong", null, "Mixed content: "), "this page is https and the node URL http; the browser blocks that unless the node is on this machine."]));
    }
    box.appendChild(ul);
    box.appendChild(sent);
    return box;
  }

  Object.keys(data.methods).forEach(function (method) {
    var section = document.getElementById(method);
    if (section) build(section, method, data.methods[method]);
  });

  // ---- Fill forms: every form from the node's replies (html/harvest.js) ----
  var fillButton = document.getElementById("fill-from-node");
  var fillStatus = document.getElementById("fill-status");
  if (fillButton) fillButton.addEventListener("click", function () {
    var base = nodeInput.value.trim().replace(/\/+$/, "");
    fillStatus.hidden = false;
    if (!/^https?:\/\//i.test(base)) { fillStatus.textContent = "The node URL must start with http:// or https://."; return; }
    fillButton.disabled = true;
    fillStatus.textContent = "Asking " + base + "…";
    fillStatus.removeAttribute("data-done");
    harvestNode.harvest(data, base).then(function (h) {
      if (!h.served.length) {
        fillStatus.textContent = "No reply from " + base + " (see a form's Send for why): the forms keep the spec's examples.";
      } else {
        var values = 0, forms = 0;
        fillers.forEach(function (f) { var n = f(h); values += n; if (n) forms++; });
        fillStatus.textContent = "Filled " + values + " values in " + forms + " forms from " + base + ".";
      }
    }).then(function () { fillButton.disabled = false; fillStatus.setAttribute("data-done", ""); });
  });
})();
