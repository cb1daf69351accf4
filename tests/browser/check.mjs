// Headless-browser check of the generated API reference (generated/docs/api.html).
//
//   node check.mjs [SCREENSHOT]          (or SCREENSHOT=… node check.mjs)
//
// Environment: API_PAGE (the page to open; default ../../generated/docs/api.html),
// SCREENSHOT (default /tmp/api-page.png; the Try it one goes next to it, -try.png),
// CHROMIUM (default /usr/bin/chromium), EXPECTED_METHODS (default 97), VIEWPORT
// (WIDTHxHEIGHT, default 1440x900), DEVNET_BIN (the avalanche-devnet binary; default
// ../../target/debug/avalanche-devnet; run.sh builds it), PORT_BASE (the first of the ten
// ports the devnets use; default 19660).
//
// Asserts that every method is listed, that the search box filters the list as one types,
// that a method link (#platform.getValidatorsAt) scrolls the method into view, and that the
// page fetches nothing and logs no error. Then saves a screenshot.
//
// Then the Try it forms, against three devnets this script starts (and always stops): one on
// 127.0.0.1:PORT_BASE allowing the page's origin (`null`: the page is a file), one on
// PORT_BASE+1 allowing only http://example.com, a fresh one on PORT_BASE+2 no form has sent
// to before; nothing listens on PORT_BASE+9. Sent from their forms,
// info.getNetworkID and platform.getHeight show their results, a JSON-RPC error is shown as
// one, a field holding invalid JSON is refused (naming it) without a request, the whole-params
// JSON mode sends, path variables fill the path, the node URL is remembered, and the two
// refused cases (CORS, nothing listening) show the explanation. Last, "Fill forms" against the
// fresh devnet fills the forms from its replies, and every read method's form (every one not
// marked changesState), sent as filled, shows a result.

import { chromium } from "playwright-core";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const pagePath = path.resolve(process.env.API_PAGE || path.join(here, "../../generated/docs/api.html"));
const screenshot = process.argv[2] || process.env.SCREENSHOT || "/tmp/api-page.png";
const executablePath = process.env.CHROMIUM || "/usr/bin/chromium";
const expected = Number(process.env.EXPECTED_METHODS || 97);
const [width, height] = (process.env.VIEWPORT || "1440x900").split("x").map(Number);
const url = pathToFileURL(pagePath).href;

let failures = 0;
function check(ok, what, detail) {
  if (ok) {
    console.log(`ok    ${what}`);
  } else {
    failures++;
    console.log(`FAIL  ${what}${detail === undefined ? "" : `: ${detail}`}`);
  }
}

if (!existsSync(pagePath)) {
  console.error(`no page at ${pagePath}; run: cargo run -p avalanche-rpc-codegen -- docs`);
  process.exit(2);
}

// The devnets: started now (they take a few seconds), stopped at exit whatever happens.
const devnetBin = path.resolve(process.env.DEVNET_BIN || path.join(here, "../../target/debug/avalanche-devnet"));
if (!existsSync(devnetBin)) {
  console.error(`no devnet at ${devnetBin}; build it (cargo build -p avalanche-devnet) or set DEVNET_BIN`);
  process.exit(2);
}
const portBase = Number(process.env.PORT_BASE || 19660);
const at = (offset) => `http://127.0.0.1:${portBase + offset}`;
const ALLOWED = at(0); // --http-allowed-origins null: the page's origin
const EXCLUDED = at(1); // --http-allowed-origins http://example.com
const FRESH = at(2); // --http-allowed-origins null, and only "Fill forms" and the sends below
const NOTHING = at(9); // nothing listens
const devnets = [];
function stopDevnets() {
  for (const d of devnets) if (d.exitCode === null && d.signalCode === null) d.kill("SIGKILL");
}
process.on("exit", stopDevnets);
for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(sig, () => { stopDevnets(); process.exit(130); });
}
function startDevnet(base, origins, extra = []) {
  const port = new URL(base).port;
  const d = spawn(devnetBin, ["--http-port", port, "--http-allowed-origins", origins, ...extra], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  devnets.push(d);
  let log = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the devnet on ${base} did not start within 60 s:\n${log}`)), 60000);
    const read = (chunk) => {
      log += chunk;
      if (/^Serving on/m.test(log)) { clearTimeout(timer); resolve(d); }
    };
    d.stdout.on("data", read);
    d.stderr.on("data", read);
    d.on("exit", (code, sig) => {
      clearTimeout(timer);
      reject(new Error(`the devnet on ${base} exited (${code ?? sig}):\n${log.split("\n").slice(-15).join("\n")}`));
    });
  });
}
const devnetsReady = Promise.all([
  startDevnet(ALLOWED, "null"),
  startDevnet(EXCLUDED, "http://example.com"),
  // The admin API's read forms need it on, as on a node (`--api-admin-enabled`).
  startDevnet(FRESH, "null", ["--api-admin-enabled"]),
]);
devnetsReady.catch(() => {}); // awaited below; a failure must not crash the process before that

const userDataDir = mkdtempSync(path.join(tmpdir(), "api-page-chromium-"));
const context = await chromium.launchPersistentContext(userDataDir, {
  executablePath,
  headless: true,
  viewport: { width, height },
  args: [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
});

try {
  // The page must be self-contained: anything but the file itself is blocked and reported.
  const fetched = [];
  await context.route("**/*", (route) => {
    const u = route.request().url();
    if (u.startsWith(url.split("#")[0])) return route.continue();
    fetched.push(u);
    return route.abort();
  });
  const page = context.pages()[0] || (await context.newPage());
  const problems = [];
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("console", (m) => {
    if (m.type() === "error" || m.type() === "warning") problems.push(`console ${m.type()}: ${m.text()}`);
  });

  await page.goto(url, { waitUntil: "load" });

  // 1. Every method is listed, once, in the content and in the sidebar.
  const listed = await page.evaluate(() => ({
    sections: [...document.querySelectorAll("section.method")].map((s) => s.id),
    nav: [...document.querySelectorAll("a.nav-method")].map((a) => a.getAttribute("href")),
  }));
  check(listed.sections.length === expected, `${expected} method sections`, listed.sections.length);
  check(listed.nav.length === expected, `${expected} methods in the sidebar`, listed.nav.length);
  check(new Set(listed.sections).size === listed.sections.length, "method ids are unique");
  check(
    listed.nav.every((h, i) => h === `#${listed.sections[i]}`),
    "sidebar links point at the method sections, in order",
  );

  // 2. Typing into the search box filters the list.
  const query = "getValidatorsAt";
  await page.click("#search");
  await page.keyboard.type(query, { delay: 15 });
  const visible = () =>
    page.evaluate(() => ({
      sections: [...document.querySelectorAll("section.method")]
        .filter((s) => s.checkVisibility())
        .map((s) => s.id),
      nav: [...document.querySelectorAll("a.nav-method")]
        .filter((a) => a.checkVisibility())
        .map((a) => a.getAttribute("data-method")),
    }));
  const expectedHits = await page.evaluate(
    (q) =>
      [...document.querySelectorAll("section.method")]
        .filter((s) => {
          const name = s.id.toLowerCase();
          const summary = s.querySelector(".method-head .summary").textContent.toLowerCase();
          return name.includes(q.toLowerCase()) || summary.includes(q.toLowerCase());
        })
        .map((s) => s.id),
    query,
  );
  const hits = await visible();
  console.log(`      "${query}" shows: ${hits.sections.join(", ")}`);
  check(hits.sections.includes("platform.getValidatorsAt"), `"${query}" shows platform.getValidatorsAt`);
  check(
    JSON.stringify(hits.sections) === JSON.stringify(expectedHits),
    `"${query}" shows exactly the methods whose name or summary holds it`,
    `${hits.sections} vs ${expectedHits}`,
  );
  check(JSON.stringify(hits.nav) === JSON.stringify(hits.sections), "the sidebar shows the same methods");
  await page.fill("#search", "zzz-no-such-method");
  check((await visible()).sections.length === 0, "a query matching nothing hides every method");
  check(await page.isVisible("#no-match"), 'and says "No method matches."');
  await page.fill("#search", "");
  check((await visible()).sections.length === expected, "clearing the search shows every method again");

  // 3. A shareable link scrolls its method into view, on a fresh load...
  const inView = (id) =>
    page.evaluate((id) => {
      const el = document.getElementById(id);
      if (!el) return { ok: false, why: "no element" };
      const r = el.getBoundingClientRect();
      const ok = r.top >= -1 && r.top < window.innerHeight && r.bottom > 0 && el.checkVisibility();
      return { ok, why: `top ${Math.round(r.top)}, bottom ${Math.round(r.bottom)}, viewport ${window.innerHeight}` };
    }, id);
  const target = "platform.getValidatorsAt";
  await page.goto(`${url}#${target}`, { waitUntil: "load" });
  await page.waitForTimeout(300);
  let v = await inView(target);
  check(v.ok, `opening #${target} scrolls it into view`, v.why);
  const scrolled = await page.evaluate(() => window.scrollY);
  check(scrolled > 1000, "(the page did scroll)", scrolled);

  // ...from the sidebar...
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.click('a.nav-method[data-method="info.getNodeID"]');
  await page.waitForTimeout(300);
  v = await inView("info.getNodeID");
  check(v.ok, "clicking info.getNodeID in the sidebar scrolls it into view", v.why);

  // ...and even while a search hides it.
  await page.fill("#search", "getBalance");
  await page.evaluate((t) => { location.hash = t; }, target);
  await page.waitForTimeout(300);
  v = await inView(target);
  check(v.ok, `#${target} is revealed and shown while a search hid it`, v.why);

  // Screenshot of the linked method.
  await page.goto(`${url}#${target}`, { waitUntil: "load" });
  await page.waitForTimeout(300);
  await page.screenshot({ path: screenshot });
  console.log(`      screenshot: ${screenshot}`);

  check(fetched.length === 0, "the page fetches nothing", fetched.join(", "));
  check(problems.length === 0, "no page errors or console errors", problems.join("; "));

  await tryIt(context, page);
} finally {
  await context.close();
  rmSync(userDataDir, { recursive: true, force: true });
  stopDevnets();
}

// 4. Try it: send from the forms to the devnets. Requests now reach them (the routing above
// is removed); the page still fetches nothing until Send is pressed.
async function tryIt(context, page) {
  await devnetsReady;
  console.log(`      devnets: ${ALLOWED} (origins: null), ${EXCLUDED} (origins: http://example.com)`);
  await context.unrouteAll({ behavior: "ignoreErrors" });
  const requests = [];
  page.on("request", (r) => { if (!r.url().startsWith("file:")) requests.push(`${r.method()} ${r.url()}`); });
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(url, { waitUntil: "load" });
  check(requests.length === 0, "loading the page fetches nothing", requests.join(", "));
  const forms = await page.locator("details.try").count();
  check(forms === expected, `${expected} Try it forms`, forms);
  if (!(await page.locator("#node-url").count())) return check(false, "the page has a node URL field (#node-url)");

  // What the devnet itself answers, asked directly (no Origin header).
  const direct = async (base, pathname, method, params = {}) => {
    const r = await fetch(base + pathname, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    });
    return (await r.json()).result;
  };
  const networkID = (await direct(ALLOWED, "/ext/info", "info.getNetworkID")).networkID;

  const formOf = (method) => page.locator(`section[id="${method}"] details.try`);
  // Opens a method's form, presses Send, waits for the outcome and returns what is shown.
  const send = async (method) => {
    const form = formOf(method);
    if (!(await form.evaluate((d) => d.open))) await form.locator("summary").click();
    await form.locator("button.try-send").click();
    const out = form.locator(".try-out");
    await page.waitForFunction((el) => !el.hidden && !el.classList.contains("try-pending"), await out.elementHandle(), {
      timeout: 15000,
    });
    return out.evaluate((el) => {
      const reply = el.querySelector(".try-reply");
      const why = el.querySelector(".try-why");
      return {
        kind: [...el.classList].find((c) => c !== "try-out").replace("try-", ""),
        status: el.querySelector(".try-status").textContent,
        reply: reply ? reply.textContent : null,
        why: why ? why.innerText : null,
        visible: el.checkVisibility(),
      };
    });
  };
  const parsed = (shown) => { try { return JSON.parse(shown.reply); } catch { return null; } };

  await page.fill("#node-url", ALLOWED);
  let shown = await send("info.getNetworkID");
  console.log(`      info.getNetworkID: ${shown.status}; ${JSON.stringify(parsed(shown)?.result)}`);
  check(shown.kind === "result" && shown.visible, "info.getNetworkID's form shows a result", `${shown.kind}: ${shown.status}`);
  check(parsed(shown)?.result?.networkID === networkID, `the reply shown holds the devnet's networkID, ${networkID}`, shown.reply);
  check(/HTTP 200/.test(shown.status) && /\d+ ms/.test(shown.status), "with the HTTP status and the time taken", shown.status);

  shown = await send("platform.getHeight");
  console.log(`      platform.getHeight: ${shown.status}; ${JSON.stringify(parsed(shown)?.result)}`);
  check(shown.kind === "result", "platform.getHeight's form shows a result", `${shown.kind}: ${shown.status}`);
  check(/^\d+$/.test(parsed(shown)?.result?.height ?? ""), "the reply shown holds a height", shown.reply);
  check(parsed(shown)?.id === 2, "requests are numbered (the second has id 2)", parsed(shown)?.id);

  // A JSON-RPC error is shown as one; the field was filled from the example and edited.
  const height = formOf("platform.getBlockByHeight").locator('[data-param="height"]');
  check((await height.inputValue()) !== "", "getBlockByHeight's height is prefilled from its example", await height.inputValue());
  await formOf("platform.getBlockByHeight").locator("summary").click();
  await height.fill("999999999");
  shown = await send("platform.getBlockByHeight");
  console.log(`      platform.getBlockByHeight(999999999): ${shown.status}`);
  check(shown.kind === "error" && /JSON-RPC error -32000/.test(shown.status), "a JSON-RPC error is shown as an error", `${shown.kind}: ${shown.status}`);

  // The whole params as one JSON object, and back to the fields.
  const block = formOf("platform.getBlockByHeight");
  await block.locator(".try-raw-toggle").check();
  check(JSON.parse(await block.locator(".try-raw").inputValue()).height === "999999999", "the JSON mode starts from the fields");
  await block.locator(".try-raw").fill('{"height": "1", "encoding": "json"}');
  shown = await send("platform.getBlockByHeight");
  check(shown.kind === "result" && parsed(shown)?.result?.block?.height === 1, "the JSON mode sends its object (block 1, as JSON)", `${shown.kind}: ${shown.status}`);
  await block.locator(".try-raw-toggle").uncheck();
  check((await height.inputValue()) === "1" && (await block.locator('[data-param="encoding"]').inputValue()) === "json", "and back in the fields, they hold its values");

  // A field holding invalid JSON is refused, naming it, and nothing is sent.
  const before = requests.length;
  await formOf("platform.getCurrentValidators").locator("summary").click();
  await formOf("platform.getCurrentValidators").locator('[data-param="nodeIDs"]').fill('["NodeID-');
  shown = await send("platform.getCurrentValidators");
  console.log(`      platform.getCurrentValidators(nodeIDs: ["NodeID-): ${shown.status}`);
  check(shown.kind === "refused" && /"nodeIDs" is not valid JSON/.test(shown.status), "a field with invalid JSON is refused, naming it", shown.status);
  check(requests.length === before, "and nothing is sent", requests.slice(before).join(", "));

  // Path variables are prefilled and fill the path.
  const index = formOf("index.getLastAccepted");
  check((await index.locator(".try-target").textContent()) === `POST ${ALLOWED}/ext/index/X/tx`, "index.getLastAccepted's path is filled from its variables", await index.locator(".try-target").textContent());
  await index.locator("summary").click();
  await index.locator('[data-var="kind"]').fill("block");
  shown = await send("index.getLastAccepted");
  check(shown.kind === "result" && requests.at(-1) === `POST ${ALLOWED}/ext/index/X/block`, "and sending uses the path as edited (/ext/index/X/block)", `${shown.kind}: ${requests.at(-1)}`);

  // Methods that change state are marked, and still sendable.
  const marked = await page.evaluate(() => [...document.querySelectorAll("details.try .badge-state")].map((b) => b.closest("section.method").id));
  const changing = await page.evaluate(() => Object.entries(JSON.parse(document.getElementById("try-data").textContent).methods).filter(([, m]) => m.changesState).map(([n]) => n));
  check(marked.length > 0 && JSON.stringify(marked) === JSON.stringify(changing), `the ${changing.length} methods that change state are marked`, marked.join(", "));
  check((await formOf("platform.issueTx").locator("button.try-send").textContent()) === "Send (changes state)", "platform.issueTx's button says it changes state");

  await formOf("platform.getHeight").scrollIntoViewIfNeeded();
  const tryShot = screenshot.replace(/(\.png)?$/, "-try.png");
  await page.screenshot({ path: tryShot });
  console.log(`      screenshot: ${tryShot}`);

  // The node URL is remembered.
  await page.reload({ waitUntil: "load" });
  check((await page.inputValue("#node-url")) === ALLOWED, "the node URL is remembered across loads", await page.inputValue("#node-url"));

  // A node that does not allow the page's origin: the browser refuses, the page says why.
  check((await direct(EXCLUDED, "/ext/info", "info.getNetworkID")).networkID === networkID, `(the devnet on ${EXCLUDED} answers outside a browser)`);
  await page.fill("#node-url", EXCLUDED);
  shown = await send("info.getNetworkID");
  console.log(`      info.getNetworkID at ${EXCLUDED}: ${shown.status}`);
  console.log(shown.why.split("\n").map((l) => `        | ${l}`).join("\n"));
  check(shown.kind === "unreachable" && /TypeError/.test(shown.status), "a node refusing the page's origin: fetch fails (TypeError)", `${shown.kind}: ${shown.status}`);
  check(/CORS/.test(shown.why) && shown.why.includes("--http-allowed-origins=null") && shown.why.includes("opened from a file has origin null"), "and the CORS explanation is shown, naming the origin and the flag", shown.why);
  await page.fill("#node-url", NOTHING);
  shown = await send("info.getNetworkID");
  check(shown.kind === "unreachable" && /not running/i.test(shown.why ?? ""), `nothing at ${NOTHING}: the same explanation, not running among the causes`, `${shown.kind}: ${shown.status}`);

  await fillAndSendEveryRead(page, formOf, send, parsed, requests);
  check(errors.length === 0, "no page errors while trying", errors.join("; "));
}

// 5. "Fill forms" from the fresh devnet, then every read method's form, as filled, shows a
// result: the spec's examples are mainnet's (an X-avax1 address, mainnet IDs and heights),
// and the fill puts in the devnet's own (its HRP, IDs its chains have, heights it has, the
// index path that holds containers).
async function fillAndSendEveryRead(page, formOf, send, parsed, requests) {
  await page.fill("#node-url", FRESH);
  await page.reload({ waitUntil: "load" });
  const reads = await page.evaluate(() =>
    Object.entries(JSON.parse(document.getElementById("try-data").textContent).methods)
      .filter(([, m]) => !m.changesState)
      .map(([n]) => n),
  );
  const before = requests.length;
  const address = formOf("avm.getBalance").locator('[data-param="address"]');
  check(/^X-avax1/.test(await address.inputValue()), "before filling, avm.getBalance's address is the spec's (mainnet's)", await address.inputValue());
  await page.click("#fill-from-node");
  await page.waitForSelector("#fill-status[data-done]", { timeout: 60000 });
  const status = await page.textContent("#fill-status");
  console.log(`      Fill forms: ${status} (${requests.length - before} requests)`);
  check(/^Filled \d+ values in \d+ forms from /.test(status), "Fill forms says what it filled", status);
  check(requests.slice(before).every((r) => r.startsWith(`POST ${FRESH}/`)), `its requests all went to ${FRESH}`, requests.slice(before).find((r) => !r.startsWith(`POST ${FRESH}/`)));
  check(/^X-local1/.test(await address.inputValue()), "avm.getBalance's address is now one of the devnet's network (X-local1…)", await address.inputValue());
  const kind = formOf("index.getContainerByID").locator('[data-var="kind"]');
  check((await kind.inputValue()) === "block", "the index forms take the path that holds containers (X/block: X/tx is empty on a network linearized from its start)", await kind.inputValue());

  const failed = [];
  for (const method of reads) {
    const shown = await send(method);
    if (shown.kind !== "result") failed.push(`${method}: ${shown.status}`);
  }
  console.log(`      sent ${reads.length} read methods' filled forms to ${FRESH}`);
  for (const f of failed) console.log(`        ${f}`);
  check(reads.length >= 60 && failed.length === 0, `every read method's filled form (${reads.length}) shows a result`, `${failed.length} failed: ${failed.map((f) => f.split(":")[0]).join(", ")}`);
  const tx = parsed(await send("avm.getTx"));
  check(/^0x/.test(tx?.result?.tx ?? ""), "avm.getTx's filled txID is a transaction of the devnet's X-chain", JSON.stringify(tx));

  // No node there: said, and the forms keep what they hold.
  await page.fill("#node-url", NOTHING);
  await page.click("#fill-from-node");
  await page.waitForSelector("#fill-status[data-done]", { timeout: 60000 });
  const none = await page.textContent("#fill-status");
  check(none.startsWith(`No reply from ${NOTHING}`), `Fill forms with nothing at ${NOTHING} says so`, none);
  check(/^X-local1/.test(await address.inputValue()), "and the forms keep their values", await address.inputValue());
}

if (failures > 0) {
  console.log(`\n${failures} check(s) failed`);
  process.exit(1);
}
console.log("\nall checks passed");
