// Headless-browser check of the generated API reference (generated/docs/api.html).
//
//   node check.mjs [SCREENSHOT]          (or SCREENSHOT=… node check.mjs)
//
// Environment: API_PAGE (the page to open; default ../../generated/docs/api.html),
// SCREENSHOT (default /tmp/api-page.png), CHROMIUM (default /usr/bin/chromium),
// EXPECTED_METHODS (default 72), VIEWPORT (WIDTHxHEIGHT, default 1440x900).
//
// Asserts that every method is listed, that the search box filters the list as one types,
// that a method link (#platform.getValidatorsAt) scrolls the method into view, and that the
// page fetches nothing and logs no error. Then saves a screenshot.

import { chromium } from "playwright-core";
import { mkdtempSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const pagePath = path.resolve(process.env.API_PAGE || path.join(here, "../../generated/docs/api.html"));
const screenshot = process.argv[2] || process.env.SCREENSHOT || "/tmp/api-page.png";
const executablePath = process.env.CHROMIUM || "/usr/bin/chromium";
const expected = Number(process.env.EXPECTED_METHODS || 72);
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
} finally {
  await context.close();
  rmSync(userDataDir, { recursive: true, force: true });
}

if (failures > 0) {
  console.log(`\n${failures} check(s) failed`);
  process.exit(1);
}
console.log("\nall checks passed");
