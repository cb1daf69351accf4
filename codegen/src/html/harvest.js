// "Fill forms": what a node's replies give for the Try it forms' params (try.js calls
// `harvestNode.harvest(data, base)` with #try-data, html/try_it.rs says its shape). The same
// harvest as `avax-rpc call METHOD --help` and `avax-rpc conformance` (cli/src/harvest.rs):
// call the methods that only read, first those needing no argument (at each of their paths),
// then those whose required params earlier replies gave, in rounds; keep every scalar member
// (and list of strings) by name with the path it came from. A form then takes, for each
// param, the first value of that name from its own path, then its chain, then any, of the
// same form as its example (an address rewritten to its chain, an ID, a decimal; `latest` or
// `hex` are never replaced).
var harvestNode = (function () {
  "use strict";
  var data = null; // #try-data, set by harvest

  // The chain a path serves: /ext/bc/X/... and /ext/index/X/... give X; /ext/info gives "".
  function chainOf(path) { var r = /^\/ext\/(?:bc|index)\/([^/]+)/.exec(path); return r ? r[1] : ""; }
  // A value with each address of another chain (P-local1...) written for `chain`.
  function onChain(v, chain) {
    if (Array.isArray(v)) return v.map(function (x) { return onChain(x, chain); });
    var r = typeof v === "string" && /^([XPC])-([a-z0-9]*1[a-z0-9]*)$/.exec(v);
    return r && /^[XPC]$/.test(chain) ? chain + "-" + r[2] : v;
  }
  // The form of a value (harvest.rs's `form`): only a value of the example's form replaces it.
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

  // `worked`: by method, the required params of the call the node answered.
  function Harvest() { this.values = {}; this.served = []; this.pending = []; this.worked = {}; }
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
  // ID and 0 as 4 bytes, ACP-77; a Subnet not converted has none, which is why the harvest
  // tries up to three values), the C-chain's exports an X-chain import from C spends. Derived
  // values are added in the order they were met.
  Harvest.prototype.derive = function (k, x, path) {
    var self = this, later = function (name, at, p) {
      var added = Promise.all([self.pending[self.pending.length - 1], p]).then(function (r) { if (r[1]) self.add(name, at, r[1]); });
      self.pending.push(added);
    };
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
    return this.valuesFor(p, path, example, ownChain)[0];
  };
  // Every value of `p` for a call at `path`, as valueFor ranks them.
  Harvest.prototype.valuesFor = function (p, path, example, ownChain) {
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
    });
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

  var nextId = 1;
  function post(base, path, method, m, params) {
    if (m.positional) params = m.params.map(function (p) { return params[p.name]; }).filter(function (v) { return v !== undefined; });
    var request = { jsonrpc: "2.0", id: nextId++, method: method, params: params };
    return fetch(base + path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(request) })
      .then(function (r) { return r.json(); })
      .then(function (reply) { return reply && reply.result; }, function () { return undefined; });
  }

  async function harvest(tryData, base) {
    data = tryData;
    var h = new Harvest(), answered = {};
    var reads = Object.keys(data.methods).filter(function (n) { return !data.methods[n].changesState; });
    for (var round = 0; round < 4; round++) {
      for (var k = 0; k < reads.length; k++) {
        var method = reads[k], m = data.methods[method];
        var required = m.params.filter(function (p) { return !p.optional; });
        if (answered[method] || (required.length > 0) === (round === 0)) continue;
        var paths = required.length ? [h.pathOf(m)] : pathsOf(m);
        for (var j = 0; j < paths.length; j++) {
          // As conformance: each required param's first value, and up to three values of the
          // first that has several (a Subnet's derived validation ID may name a validator
          // since removed; the next may not).
          var params = {}, missing = false, varied = null;
          required.forEach(function (p) {
            var vs = h.valuesFor(p, paths[j], p.example, true);
            if (!vs.length) vs = h.valuesFor(p, paths[j], p.example, false);
            // From the third round, the example for what no reply gave (a chain's alias).
            if (!vs.length && round >= 2 && p.example !== undefined) vs = [p.example];
            if (!vs.length) { missing = true; return; }
            params[p.name] = vs[0];
            if (vs.length > 1 && !varied) varied = { name: p.name, values: vs.slice(0, 3) };
          });
          if (missing) continue;
          var attempts = varied ? varied.values.map(function (v) { var a = Object.assign({}, params); a[varied.name] = v; return a; }) : [params];
          var result = undefined;
          for (var a = 0; a < attempts.length && result === undefined; a++) {
            result = await post(base, paths[j], method, m, attempts[a]);
            if (result !== undefined) h.worked[method] = attempts[a];
          }
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

  return { harvest: harvest, pathValues: pathValues, warpMessage: warpMessage };
})();
