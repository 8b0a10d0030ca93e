// Drives the official OpenAI TypeScript SDK's Responses API against a transcoding shaper; prints one JSON line.
// Env: SDK_DIR (the installed openai package), BASE_URL (the shaper, ending in /v1).
const sdk = require(process.env.SDK_DIR);
const OpenAI = sdk.OpenAI || sdk.default || sdk;

async function main() {
  const client = new OpenAI({ baseURL: process.env.BASE_URL, apiKey: 'sk-dummy', maxRetries: 0, timeout: 30000 });
  const out = {};

  // responses.create({stream: true}): every event as the SDK parses it
  const events = await client.responses.create({ model: 'gpt-sdk-test', input: 'hello [[reason]]', stream: true });
  let text = '';
  const types = [];
  let completed = null;
  for await (const e of events) {
    types.push(e.type);
    if (e.type === 'response.output_text.delta') text += e.delta;
    if (e.type === 'response.completed') completed = e.response;
  }
  out.created = { text, types, completed };

  // responses.stream(): the SDK's own accumulator and finalResponse()
  const stream = client.responses.stream({
    model: 'gpt-sdk-test',
    instructions: 'be brief',
    input: [{ role: 'user', content: [{ type: 'input_text', text: 'please [[bash:ls -la]]' }] }],
    tools: [{ type: 'function', name: 'Bash', description: 'run a command', strict: false,
              parameters: { type: 'object', properties: { command: { type: 'string' } } } }],
  });
  let argDeltas = 0;
  stream.on('response.function_call_arguments.delta', () => { argDeltas++; });
  const final = await stream.finalResponse();
  out.tool = { final, argDeltas };

  // the round trip: the call's output goes back as function_call_output
  const call = final.output.find((i) => i.type === 'function_call');
  const next = await client.responses.create({
    model: 'gpt-sdk-test',
    input: [{ role: 'user', content: 'please [[bash:ls -la]]' }, call,
            { type: 'function_call_output', call_id: call.call_id, output: 'a.txt b.txt' }],
    tools: [{ type: 'function', name: 'Bash', parameters: { type: 'object', properties: { command: { type: 'string' } } } }],
  });
  out.roundTrip = { text: next.output_text, status: next.status };

  // non-streaming responses.create
  const plain = await client.responses.create({ model: 'gpt-sdk-test', input: 'hello' });
  out.plain = { text: plain.output_text, object: plain.object, model: plain.model, usage: plain.usage };

  // a conversation-state control is rejected in the OpenAI error shape
  try {
    await client.responses.create({ model: 'gpt-sdk-test', input: 'x', background: true });
    out.rejected = { status: 0 };
  } catch (err) {
    out.rejected = { status: err.status, message: err.error && err.error.message, type: err.error && err.error.type };
  }
  process.stdout.write(JSON.stringify(out) + '\n');
}

main().catch((err) => {
  process.stderr.write(String((err && err.stack) || err) + '\n');
  process.exit(1);
});
