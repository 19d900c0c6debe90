// Validation of the Gateway API examples in deploy/k8s/examples
// (gateway.networking.k8s.io objects: custom resources, for which
// kubernetes-validate has no schema). Run by deploy/validate.sh:
//
//   node deploy/gateway_validate.mjs MODELS_DIR < DOCS.json
//
// MODELS_DIR: where npm installed @kubernetes-models/gateway-api and
// typescript. Each object is checked twice against that package, which is
// generated from the Gateway API's Go types (the types its CRDs are
// generated from):
//   - its JSON schema validators (ajv): types, required fields, enums,
//     patterns, lengths and ranges (not the CRDs' CEL rules);
//   - its TypeScript interfaces, with `tsc --strict`: an object literal
//     with a field the type does not have fails, as kubernetes-validate
//     --strict rejects unknown fields.
// DOCS.json: a JSON array of {"file": PATH, "doc": OBJECT}. Prints one line
// per object and exits 1 if any object is invalid or has no schema.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [modelsDir] = process.argv.slice(2);
const pkg = "@kubernetes-models/gateway-api";
const docs = JSON.parse(readFileSync(0, "utf8"));
let failed = 0;
const source = [];
const spans = [];
for (const [i, { file, doc }] of docs.entries()) {
  const [group, version = ""] = String(doc.apiVersion).split("/");
  const what = `${file}: ${doc.kind}/${doc.metadata?.name} (${doc.apiVersion})`;
  const schema = join(
    modelsDir, "node_modules", pkg, "_schemas",
    `IoK8sSigsGatewayApiApis${version.charAt(0).toUpperCase()}${version.slice(1)}${doc.kind}.js`,
  );
  if (group !== "gateway.networking.k8s.io" || !/^v\w+$/.test(version) || !existsSync(schema)) {
    console.error(`${what}: no Gateway API schema for this kind`);
    failed++;
    continue;
  }
  const { validate } = await import(pathToFileURL(schema).href);
  if (validate(doc)) {
    console.log(`${what}: schema: valid`);
  } else {
    failed++;
    for (const e of validate.errors) {
      console.error(`${what}: schema: ${e.instancePath || "/"}: ${e.keyword} ${JSON.stringify(e.params)}`);
    }
  }
  source.push(`import type { I${doc.kind} as T${i} } from "${pkg}/${group}/${version}/${doc.kind}";`);
  const first = source.length + 1;
  source.push(...`export const o${i}: T${i} = ${JSON.stringify(doc, null, 1)};`.split("\n"));
  spans.push({ first, last: source.length, what });
}

// The TypeScript check, in MODELS_DIR so that the imports resolve there.
const dir = mkdtempSync(join(modelsDir, "check-"));
try {
  writeFileSync(join(dir, "check.ts"), source.join("\n") + "\n");
  const tsc = join(modelsDir, "node_modules", "typescript", "bin", "tsc");
  const args = ["--noEmit", "--strict", "--module", "nodenext", "--moduleResolution", "nodenext",
    "--target", "es2022", "--skipLibCheck", join(dir, "check.ts")];
  try {
    execFileSync(process.execPath, [tsc, ...args], { encoding: "utf8", stdio: "pipe" });
    for (const { what } of spans) console.log(`${what}: types: valid`);
  } catch (e) {
    failed++;
    for (const line of String(e.stdout).split("\n").filter(Boolean)) {
      const m = /check\.ts\((\d+),\d+\): (.*)$/.exec(line);
      const span = m && spans.find((s) => s.first <= +m[1] && +m[1] <= s.last);
      console.error(span ? `${span.what}: types: ${m[2]}` : `tsc: ${line}`);
    }
    if (e.stderr) console.error(String(e.stderr));
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
