// Lists the routed mount's models with the official SDKs, as a client's model picker does.
// Prints {"openai":[ids],"anthropic":[ids]} on stdout; any SDK error fails the script.
const OpenAI = require(process.env.OPENAI_SDK_DIR);
const Anthropic = require(process.env.ANTHROPIC_SDK_DIR);

async function main() {
  const openai = new (OpenAI.default || OpenAI)({ apiKey: "sk-client-placeholder", baseURL: process.env.BASE_URL + "/v1" });
  const openaiIds = [];
  for await (const model of openai.models.list()) {
    openaiIds.push(model.id);
  }
  const anthropic = new (Anthropic.default || Anthropic)({ apiKey: "sk-ant-client-placeholder", baseURL: process.env.BASE_URL });
  const anthropicIds = [];
  for await (const model of anthropic.models.list()) {
    anthropicIds.push(model.id);
  }
  process.stdout.write(JSON.stringify({ openai: openaiIds, anthropic: anthropicIds }));
}

main().catch((e) => {
  process.stderr.write(String(e && e.stack ? e.stack : e));
  process.exit(1);
});
