// End-to-end check of `tlmcraft mcp` with the official TypeScript MCP SDK client:
// spawn the server over stdio, negotiate, list tools, write the PLENA SiLU C1 baseline
// kernel, check it, evaluate it and require status "pass"; also require that protocol
// errors (unknown tool) and tool errors (bad arguments) come back in their MCP shapes.
//
// usage: node client.mjs TLMCRAFT_BINARY WORKSPACE_DIR
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";

const [tlmcraft, workspace] = process.argv.slice(2);
if (!tlmcraft || !workspace) {
  console.error("usage: node client.mjs TLMCRAFT_BINARY WORKSPACE_DIR");
  process.exit(2);
}
const env = { ...process.env, SYSC_DISABLE_COPYRIGHT_MESSAGE: "1" };
const workload = ["--platform", "plena", "--task", "silu", "--config", "C1"];

function text(result) {
  return result.content.filter((c) => c.type === "text").map((c) => c.text).join("\n");
}

async function main() {
  const kernel = execFileSync(tlmcraft, ["baseline", ...workload], { env, encoding: "utf8" });
  assert.ok(kernel.trim().length > 0, "tlmcraft baseline printed no kernel");

  const transport = new StdioClientTransport({
    command: tlmcraft,
    args: ["mcp", ...workload, "--workspace", workspace],
    env,
    stderr: "inherit", // the server's notices; stdout is the protocol
  });
  const client = new Client({ name: "tlmcraft-e2e", version: "1.0.0" });
  await client.connect(transport); // initialize + notifications/initialized

  const server = client.getServerVersion();
  assert.equal(server.name, "tlmcraft");
  assert.ok(client.getServerCapabilities().tools, "server must announce the tools capability");
  await client.ping();

  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name);
  for (const required of ["write_code", "check_syntax", "run_evaluation", "get_task"])
    assert.ok(names.includes(required), `tools/list lacks ${required}: ${names.join(", ")}`);
  for (const t of tools) assert.equal(t.inputSchema.type, "object", `${t.name}: inputSchema must be an object schema`);
  console.error(`client: ${tools.length} tools: ${names.join(", ")}`);

  const written = await client.callTool({ name: "write_code", arguments: { code: kernel } });
  assert.equal(written.isError, false, text(written));

  const checked = await client.callTool({ name: "check_syntax", arguments: {} });
  assert.equal(checked.isError, false, text(checked));
  assert.equal(checked.structuredContent?.success, true, text(checked));

  const evaluated = await client.callTool({ name: "run_evaluation", arguments: {} });
  console.error(`client: run_evaluation: ${text(evaluated)}`);
  assert.equal(evaluated.isError, false, text(evaluated));
  assert.equal(evaluated.structuredContent?.status, "pass", text(evaluated));
  assert.match(text(evaluated), /status: pass/);

  // A tool error (schema violation) is a result with isError, not a protocol error.
  const bad = await client.callTool({ name: "write_code", arguments: { code: 42 } });
  assert.equal(bad.isError, true, "write_code with a number for code must be a tool error");

  // An unknown tool is a JSON-RPC error -32602 (invalid params).
  await assert.rejects(
    client.callTool({ name: "no_such_tool", arguments: {} }),
    (e) => e instanceof McpError && e.code === -32602,
  );

  await client.close();
  console.error("client: ok");
}

main().catch((e) => {
  console.error(`client: FAILED: ${e?.stack ?? e}`);
  process.exit(1);
});
