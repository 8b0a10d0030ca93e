package shaper.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import picocli.CommandLine.Option;
import shaper.config.ConfigException;
import shaper.transcode.TranscodeAuth;
import shaper.transcode.TranscodeConfig;
import shaper.transcode.TranscodeRoute;
import shaper.transcode.pipeline.TranscodePolicies;

/** Provider-scope transcoding flags: which routes are converted, to what, with which defaults withdrawn or extended. */
public final class TranscodeOptions {
    @Option(names = {"-transcode-route", "--transcode-route"}, paramLabel = "MAPPING",
            description = "Transcode route clientProto@clientPath=upstreamProto@upstreamPath (client: messages, responses;"
                    + " upstream: chat-completions, responses); repeatable")
    List<String> routes = new ArrayList<>();

    @Option(names = {"-transcode-messages-chat", "--transcode-messages-chat"}, arity = "0..1", fallbackValue = "true", defaultValue = "false",
            description = "Preset: Messages clients (POST /v1/messages) on a Chat Completions upstream (POST /v1/chat/completions)")
    boolean messagesChat;

    @Option(names = {"-transcode-responses-chat", "--transcode-responses-chat"}, arity = "0..1", fallbackValue = "true", defaultValue = "false",
            description = "Preset: Responses clients (POST /v1/responses) on a Chat Completions upstream (POST /v1/chat/completions)")
    boolean responsesChat;

    @Option(names = {"-transcode-messages-responses", "--transcode-messages-responses"}, arity = "0..1", fallbackValue = "true",
            defaultValue = "false", description = "Preset: Messages clients (POST /v1/messages) on a Responses upstream (POST /v1/responses);"
                    + " needs -transcode-allow-loss tool_schema_strictness")
    boolean messagesResponses;

    @Option(names = {"-transcode-chat-capability", "--transcode-chat-capability"}, paramLabel = "NAME",
            description = "Enable (NAME) or withdraw (!NAME) a chat upstream capability; repeatable, comma/space separated")
    List<String> capabilities = new ArrayList<>();

    @Option(names = {"-transcode-allow-client-query", "--transcode-allow-client-query"}, paramLabel = "NAME",
            description = "Forward this client query parameter (default beta), or withdraw one (!NAME); repeatable")
    List<String> queries = new ArrayList<>();

    @Option(names = {"-transcode-allow-loss", "--transcode-allow-loss"}, paramLabel = "KEY",
            description = "Approve (KEY) or withdraw (!KEY) a non-portable loss by its LOSS_MATRIX.md key; repeatable, comma/space separated")
    List<String> losses = new ArrayList<>();

    @Option(names = {"-transcode-strict-defaults", "--transcode-strict-defaults"}, arity = "0..1", fallbackValue = "true",
            defaultValue = "false", description = "Start from no default capabilities, query parameters or loss approvals")
    boolean strictDefaults;

    @Option(names = {"-transcode-model", "--transcode-model"}, paramLabel = "CLIENT=UPSTREAM",
            description = "Map a client model name to an upstream model name; repeatable (unset: names pass unchanged)")
    List<String> models = new ArrayList<>();

    @Option(names = {"-transcode-auth", "--transcode-auth"}, paramLabel = "MODE",
            description = "Target auth of transcoded routes: auto, none, bearer, x-api-key, api-key or header (unset: the provider's, else none)")
    String auth;

    @Option(names = {"-transcode-auth-source", "--transcode-auth-source"}, paramLabel = "SOURCE",
            description = "Credential of transcoded routes: inbound, env:VAR, file:PATH or provider (unset: the provider's, else none)")
    String authSource;

    @Option(names = {"-transcode-auth-header", "--transcode-auth-header"}, paramLabel = "NAME",
            description = "Header name for -transcode-auth header")
    String authHeader;

    @Option(names = {"-transcode-anthropic-version", "--transcode-anthropic-version"}, paramLabel = "VERSION",
            description = "Anthropic-Version sent when the transcode auth mode is x-api-key (default 2023-06-01)")
    String anthropicVersion;

    @Option(names = {"-transcode-max-request-mb", "--transcode-max-request-mb"}, paramLabel = "MB", defaultValue = "10",
            description = "Largest client request body converted, in MiB (413 request_too_large above; default ${DEFAULT-VALUE})")
    long maxRequestMb;

    @Option(names = {"-transcode-max-response-mb", "--transcode-max-response-mb"}, paramLabel = "MB", defaultValue = "10",
            description = "Largest non-streaming upstream body converted, in MiB (502 above; default ${DEFAULT-VALUE})")
    long maxResponseMb;

    TranscodeConfig toConfig() {
        List<TranscodeRoute> mapped = new ArrayList<>();
        if (messagesChat && messagesResponses) {
            throw new ConfigException("-transcode-messages-chat and -transcode-messages-responses both map /v1/messages; enable only one");
        }
        if (messagesChat) {
            mapped.add(TranscodeRoute.MESSAGES_CHAT);
        }
        if (responsesChat) {
            mapped.add(TranscodeRoute.RESPONSES_CHAT);
        }
        if (messagesResponses) {
            mapped.add(TranscodeRoute.MESSAGES_RESPONSES);
        }
        for (String r : routes) {
            mapped.add(TranscodeRoute.parse(r));
        }
        TranscodeAuth target = TranscodeAuth.parse(auth, authSource, authHeader, anthropicVersion);
        if (mapped.isEmpty()) {
            if (!capabilities.isEmpty() || !queries.isEmpty() || !losses.isEmpty() || strictDefaults || !models.isEmpty()
                    || auth != null || authSource != null || authHeader != null || anthropicVersion != null) {
                throw new ConfigException("transcoding flags have no effect without a mapping (-transcode-route or a -transcode-* preset)");
            }
            return TranscodeConfig.OFF;
        }
        if (maxRequestMb <= 0 || maxResponseMb <= 0) {
            throw new ConfigException("-transcode-max-request-mb and -transcode-max-response-mb must be > 0, got "
                    + maxRequestMb + " and " + maxResponseMb);
        }
        TranscodePolicies policies = TranscodePolicies.resolve(capabilities, queries, losses, strictDefaults);
        return new TranscodeConfig(policies.mappings(mapped, modelMap(), maxRequestMb, maxResponseMb), target);
    }

    private Map<String, String> modelMap() {
        Map<String, String> out = new LinkedHashMap<>();
        for (String m : models) {
            int eq = m.indexOf('=');
            if (eq <= 0 || eq == m.length() - 1) {
                throw new ConfigException("-transcode-model \"" + m + "\" (expected: client=upstream)");
            }
            String client = m.substring(0, eq).trim();
            if (out.put(client, m.substring(eq + 1).trim()) != null) {
                throw new ConfigException("duplicate -transcode-model client model \"" + client + "\"");
            }
        }
        return out;
    }
}
