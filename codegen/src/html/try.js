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
  var fillers = []; // one per form: fills it from a harvest (see fillFromNode below)
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
      var values = pathValues(m.path, path);
      varInputs.forEach(function (i) { var v = values[i.getAttribute("data-var")]; if (v !== undefined) i.value = v; });
      refresh();
      m.params.forEach(function (p, n) {
        if (p.example === undefined && p.optional) return;
        var v = h.valueFor(p, path, p.example, true);
        if (v === undefined) v = h.valueFor(p, path, p.example, false);
        if (v === undefined && p.example !== undefined) v = warpMessage(h, p.example);
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

  // ---- Fill the forms from the node ----
  // The same harvest as `avax-rpc call METHOD --help` and `avax-rpc conformance`
  // (cli/src/harvest.rs): call the methods that only read, first those needing no argument
  // (at each of their paths), then those whose required params earlier replies gave, in
  // rounds; keep every scalar member (and list of strings) by name with the path it came
  // from. A form then takes, for each param, the first value of that name from its own path,
  // then its chain, then any, of the same form as its example (an address rewritten to its
  // chain, an ID, a decimal; `latest` or `hex` are never replaced).

  // The chain a path serves: /ext/bc/X/... and /ext/index/X/... give X; /ext/info gives "".
  function chainOf(path) { var r = /^\/ext\/(?:bc|index)\/([^/]+)/.exec(path); return r ? r[1] : ""; }
  // A value with each address of another chain (P-local1...) written for `chain`.
  function onChain(v, chain) {
    if (Array.isArray(v)) return v.map(function (x) { return onChain(x, chain); });
    var r = typeof v === "string" && /^([XPC])-([a-z0-9]*1[a-z0-9]*)$/.exec(v);
    return r && /^[XPC]$/.test(chain) ? chain + "-" + r[2] : v;
  }
  function form(v) {
    if (Array.isArray(v)) return v.length ? form(v[0]) : "[]";
    if (typeof v === "number") return "decimal";
    if (typeof v !== "string") return "json:" + JSON.stringify(v);
    if (/^0x/.test(v)) return "hex" + (v.length - 2);
    if (/^[0-9]+$/.test(v)) return "decimal";
    if (/^NodeID-/.test(v)) return "node";
    if (/^[XPC]-[^-]*1/.test(v)) return "address";
    if (v.length >= 40 && /^[1-9A-HJ-NP-Za-km-z]+$/.test(v)) return "id";
    return "text:" + v;
  }
  // Every path of a method: its variables at their defaults first, then at their examples.
  function pathsOf(m) {
    var out = [m.path];
    (data.paths[m.path] || []).forEach(function (v) {
      var values = [v.value].concat(v.examples.filter(function (x) { return x !== v.value; }));
      out = [].concat.apply([], out.map(function (p) { return values.map(function (x) { return p.replace("{" + v.name + "}", x); }); }));
    });
    return out;
  }
  function pathValues(template, path) {
    var out = {}, t = template.split("/"), p = path.split("/");
    t.forEach(function (seg, i) { var r = /^\{(.+)\}$/.exec(seg); if (r) out[r[1]] = p[i]; });
    return out;
  }

  function Harvest() { this.values = {}; this.served = []; this.pending = []; }
  Harvest.prototype.add = function (name, path, v) {
    var list = this.values[name] || (this.values[name] = []), text = JSON.stringify(v);
    var here = list.filter(function (e) { return e.path === path; });
    if (here.length < 8 && !here.some(function (e) { return JSON.stringify(e.v) === text; })) list.push({ path: path, v: v });
  };
  Harvest.prototype.collect = function (v, path) {
    var self = this;
    if (Array.isArray(v)) return v.forEach(function (x) { self.collect(x, path); });
    if (v === null || typeof v !== "object") return;
    Object.keys(v).forEach(function (k) {
      var x = v[k];
      if (typeof x === "string" || typeof x === "number") self.add(k, path, x);
      else if (Array.isArray(x) && x.length && x.every(function (i) { return typeof i === "string"; })) self.add(k, path, x);
      self.derive(k, x, path);
      self.collect(x, path);
    });
  };
  // What a member gives besides itself, as harvest.rs: a block's ID (SHA-256 of its bytes),
  // the transactions that produced UTXOs (a UTXO's bytes start with its codec version and that
  // ID), the validation ID of a converted Subnet's first validator (SHA-256 of the Subnet's
  // ID and 0 as 4 bytes, ACP-77), the C-chain's exports an X-chain import from C spends.
  Harvest.prototype.derive = function (k, x, path) {
    var self = this, later = function (name, at, p) { self.pending.push(p.then(function (v) { if (v) self.add(name, at, v); })); };
    var b = typeof x === "string" ? nodeHex(x) : null;
    if (k === "block" && b) later("blockID", path, sha256(b).then(cb58));
    if (k === "subnetID" && typeof x === "string" && !/^1+LpoYY$/.test(x)) {
      var id = cb58Decode(x);
      if (id) later("validationID", path, sha256(concat(id, new Uint8Array(4))).then(cb58));
    }
    // (UTXOs at the C-chain's avax path came from another chain's exports: not C's transactions.)
    if (k === "utxos" && Array.isArray(x) && !/\/avax$/.test(path)) x.map(nodeHex).forEach(function (u) { if (u && u.length > 34) later("txID", path, cb58(u.slice(2, 34))); });
    if ((k === "tx" || k === "bytes" || k === "block") && b && chainOf(path) === "X") {
      importsFromC(b).forEach(function (t) { later("txID", "/ext/bc/C/avax", cb58(t)); });
    }
  };
  // The values of `name` for a call at `path`: its own path's first, then its chain's, then
  // (unless ownChain) the rest; addresses written for the path's chain.
  Harvest.prototype.candidates = function (name, path, ownChain) {
    var chain = chainOf(path);
    var rank = function (p) { return p === path ? 0 : chainOf(p) === chain ? 1 : 2; };
    var list = (this.values[name] || []).filter(function (e) { return !ownChain || rank(e.path) < 2; });
    list.sort(function (a, b) { return rank(a.path) - rank(b.path); });
    return list.map(function (e) { return onChain(e.v, chain); });
  };
  // A param's value: of its name (a list also from its singular name: addresses from
  // address), as its JSON kind (a string field takes 5 as "5"), of the example's form.
  Harvest.prototype.valueFor = function (p, path, example, ownChain) {
    var list = /^list</.test(p.type);
    var found = this.candidates(p.name, path, ownChain).map(function (v) {
      if (p.string && typeof v === "number") return String(v);
      return typeof example === "number" && /^[0-9]+$/.test(v) ? Number(v) : v;
    });
    if (list && /s$/.test(p.name)) {
      found = found.concat(this.candidates(p.name.slice(0, -1), path, ownChain).filter(function (v) { return !Array.isArray(v); }).map(function (v) { return [v]; }));
    }
    return found.filter(function (v) {
      return Array.isArray(v) === list && (example === undefined || form(example) === form(v));
    })[0];
  };
  // The path to call a method at: the first of its paths at which the node answered.
  Harvest.prototype.pathOf = function (m) {
    var served = this.served;
    var paths = pathsOf(m);
    return paths.filter(function (p) { return served.indexOf(p) >= 0; })[0] || paths[0];
  };
  // An unsigned Warp message like the example (codec 0, network ID, source chain, payload)
  // for the node's network, from one of its chains (a blockchainID its replies gave).
  function warpMessage(h, example) {
    var net = h.candidates("networkID", "/ext/info")[0], chain = h.candidates("blockchainID", "/ext/info")[0];
    if (typeof example !== "string" || !/^0x0000[0-9a-f]{72}/.test(example) || net === undefined || !chain) return undefined;
    var id = cb58Bytes(chain);
    if (!id) return undefined;
    return "0x0000" + ("0000000" + Number(net).toString(16)).slice(-8) + id + example.slice(2 + 76);
  }
  function cb58Bytes(text) { var b = cb58Decode(text); return b && Array.from(b, function (x) { return x.toString(16).padStart(2, "0"); }).join(""); }

  // Bytes: hex, SHA-256, CB58 (base58 of the bytes and the last 4 bytes of their SHA-256).
  var B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
  function hexBytes(t) {
    if (!/^0x([0-9a-f]{2})+$/i.test(t)) return null;
    var out = new Uint8Array((t.length - 2) / 2);
    for (var i = 0; i < out.length; i++) out[i] = parseInt(t.substr(2 + 2 * i, 2), 16);
    return out;
  }
  // The node's hex encoding: the bytes and a 4-byte checksum (not checked here).
  function nodeHex(t) { var b = hexBytes(t); return b && b.length > 4 ? b.slice(0, b.length - 4) : null; }
  function concat(a, b) { var out = new Uint8Array(a.length + b.length); out.set(a); out.set(b, a.length); return out; }
  function sha256(b) { return crypto.subtle.digest("SHA-256", b).then(function (d) { return new Uint8Array(d); }); }
  function cb58(b) {
    return sha256(b).then(function (sum) {
      var all = concat(b, sum.slice(28)), n = 0n, out = "";
      all.forEach(function (x) { n = n * 256n + BigInt(x); });
      while (n > 0n) { out = B58[Number(n % 58n)] + out; n /= 58n; }
      for (var i = 0; i < all.length && all[i] === 0; i++) out = "1" + out;
      return out;
    });
  }
  // A CB58 ID's 32 bytes (its checksum dropped, not checked).
  function cb58Decode(text) {
    var n = 0n;
    for (var i = 0; i < text.length; i++) { var d = B58.indexOf(text[i]); if (d < 0) return null; n = n * 58n + BigInt(d); }
    var hex = n.toString(16).padStart(72, "0");
    return hex.length === 72 ? hexBytes("0x" + hex.slice(0, 64)) : null;
  }
  // The same, for an X transaction, an X block (its first transaction) or a proposer block
  // wrapping one (parent, timestamp, P-chain height, certificate, then the block), by type ID.
  function importsFromC(b) {
    var v = new DataView(b.buffer), type = b.length > 6 ? v.getUint32(2) : -1;
    if (type === 3) return importedFromC(b, 2);
    if (type === 20) return importedFromC(b, 90);
    if (type !== 0 && type !== 2) return [];
    try {
      var o = 54 + 4 + v.getUint32(54), n = v.getUint32(o), inner = b.slice(o + 4, o + 4 + n);
      return inner.length === n && inner.length > 6 && new DataView(inner.buffer).getUint32(2) === 20 ? importedFromC(inner, 90) : [];
    } catch (e) { return []; }
  }
  // The UTXOs an X-chain ImportTx from the C-chain spends (the source neither the P-chain's
  // all-zero ID nor the X-chain itself), its unsigned transaction at `at` (after a codec
  // version, or an X block's header). Reads only secp256k1 transfer outputs and inputs, what
  // an import from C holds; anything else gives nothing.
  function importedFromC(b, at) {
    var v = new DataView(b.buffer), o = at;
    var u32 = function () { var x = v.getUint32(o); o += 4; return x; };
    var skip = function (each) { var n = u32(); o += n * each; }; // a length, then that many items
    try {
      if (u32() !== 3) return []; // ImportTx
      o += 4; var chain = b.slice(o, o + 32); o += 32;
      for (var n = u32(); n > 0; n--) { o += 32; if (u32() !== 7) return []; o += 20; skip(20); }
      var inputs = function () {
        var ids = [];
        for (var n = u32(); n > 0; n--) { ids.push(b.slice(o, o + 32)); o += 68; if (u32() !== 5) throw 0; o += 8; skip(4); }
        return ids;
      };
      inputs(); skip(1); // and the memo
      var source = b.slice(o, o + 32); o += 32;
      var same = function (a, c) { return a.every(function (x, i) { return x === c[i]; }); };
      if (source.every(function (x) { return x === 0; }) || same(source, chain)) return [];
      return inputs();
    } catch (e) { return []; }
  }

  function post(base, path, method, m, params) {
    if (m.positional) params = m.params.map(function (p) { return params[p.name]; }).filter(function (v) { return v !== undefined; });
    var request = { jsonrpc: "2.0", id: nextId++, method: method, params: params };
    return fetch(base + path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(request) })
      .then(function (r) { return r.json(); })
      .then(function (reply) { return reply && reply.result; }, function () { return undefined; });
  }

  async function harvest(base) {
    var h = new Harvest(), answered = {};
    var reads = Object.keys(data.methods).filter(function (n) { return !data.methods[n].changesState; });
    for (var round = 0; round < 4; round++) {
      for (var k = 0; k < reads.length; k++) {
        var method = reads[k], m = data.methods[method];
        var required = m.params.filter(function (p) { return !p.optional; });
        if (answered[method] || (required.length > 0) === (round === 0)) continue;
        var paths = required.length ? [h.pathOf(m)] : pathsOf(m);
        for (var j = 0; j < paths.length; j++) {
          var params = {}, missing = false;
          required.forEach(function (p) {
            var v = h.valueFor(p, paths[j], p.example, true);
            if (v === undefined) v = h.valueFor(p, paths[j], p.example, false);
            // From the third round, the example for what no reply gave (a chain's alias).
            if (v === undefined && round >= 2) v = p.example;
            if (v === undefined) missing = true; else params[p.name] = v;
          });
          if (missing) continue;
          var result = await post(base, paths[j], method, m, params);
          if (result === undefined) continue;
          h.collect(result, paths[j]);
          await Promise.all(h.pending);
          answered[method] = true;
          if (!required.length && h.served.indexOf(paths[j]) < 0) h.served.push(paths[j]);
        }
      }
      if (!h.served.length) break; // nothing answered: no node there, or CORS refused
    }
    return h;
  }

  var fillButton = document.getElementById("fill-from-node");
  var fillStatus = document.getElementById("fill-status");
  if (fillButton) fillButton.addEventListener("click", function () {
    var base = nodeInput.value.trim().replace(/\/+$/, "");
    fillStatus.hidden = false;
    if (!/^https?:\/\//i.test(base)) { fillStatus.textContent = "The node URL must start with http:// or https://."; return; }
    fillButton.disabled = true;
    fillStatus.textContent = "Asking " + base + "…";
    fillStatus.removeAttribute("data-done");
    harvest(base).then(function (h) {
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
