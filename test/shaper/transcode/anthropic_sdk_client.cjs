// Drives the official Anthropic TypeScript SDK against a transcoding shaper; prints one JSON line.
// Env: SDK_DIR (the installed @anthropic-ai/sdk package), BASE_URL (the shaper).
const sdk = require(process.env.SDK_DIR);
const Anthropic = sdk.Anthropic || sdk.default || sdk;

async function main() {
  const client = new Anthropic({ baseURL: process.env.BASE_URL, apiKey: 'sk-ant-dummy', maxRetries: 0, timeout: 30000 });
  const out = {};

  const stream = client.messages.stream({
    model: 'claude-sdk-test', max_tokens: 128,
    messages: [{ role: 'user', content: 'hello [[reason]]' }],
  });
  let text = '';
  let thinking = '';
  stream.on('text', (t) => { text += t; });
  stream.on('thinking', (t) => { thinking += t; });
  const final = await stream.finalMessage();
  out.stream = { text, thinking, final };

  const tools = client.messages.stream({
    model: 'claude-sdk-test', max_tokens: 128,
    tools: [{ name: 'Bash', description: 'run a command', input_schema: { type: 'object', properties: { command: { type: 'string' } } } }],
    messages: [{ role: 'user', content: 'please [[bash:ls -la]]' }],
  });
  const inputs = [];
  tools.on('inputJson', (partial) => { inputs.push(partial); });
  out.tools = { final: await tools.finalMessage(), partials: inputs.length };

  out.plain = await client.messages.create({
    model: 'claude-sdk-test', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }],
  });

  try {
    await client.messages.create({ model: 'claude-sdk-test', max_tokens: 64, top_k: 3, messages: [{ role: 'user', content: 'hi' }] });
    out.rejected = null;
  } catch (e) {
    out.rejected = { status: e.status, type: e.error && e.error.error && e.error.error.type, message: e.error && e.error.error && e.error.error.message };
  }
  console.log(JSON.stringify(out));
}

main().catch((e) => { console.error(e && e.stack || String(e)); process.exit(1); });
