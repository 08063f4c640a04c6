/**
 * The shapes of text written to steer a model rather than to inform a reader. Each rule names one
 * shape; a rule of weight 1 quarantines a unit on its own, weaker ones only together (a support
 * runbook may say "tell the customer that…", a page may link to a login URL, an API guide may say
 * "send your API key"; a unit that does two of these at once to a model is an instruction).
 * The rules describe grammar and vocabulary aimed at a model, never any one document's sentences.
 */
export interface Rule {
  id: string;
  /** 1 = enough alone; below 1 = only with other evidence in the same unit or paragraph. */
  weight: number;
  /** Why the rule exists, as the warning and the debug listing say it. */
  reason: string;
  pattern: RegExp;
}

/** Names a reader uses for an AI system; "agent" and "model" alone are too common (RL, ML, support). */
const AI =
  '(?:ai|a\\.i\\.|artificial intelligence|ai (?:assistant|agent|model|system|tool)s?|assistants?|llms?|large language models?|language models?|chat ?bots?|bots|virtual assistants?|gpts?|chatgpt|copilot|claude|gemini|automated (?:readers?|systems?|agents?|assistants?|tools?|processes)|machine readers?|summari[sz]ers?|answering (?:systems?|engines?|tools?)|(?:ai|machine)-generated (?:answers?|responses?|summaries))';
const URL = String.raw`(?:\bhttps?:\/\/\S+|\bwww\.[a-z0-9-]+\.\S+)`;
/** Secrets a person could be tricked into typing: payment, passwords, one-time codes. */
const PERSONAL_SECRET =
  '(?:card(?:holder)?\\s*(?:number|details|data|info(?:rmation)?)|(?:credit|debit|payment|bank)\\s*cards?|cards?\\b|cvv2?|cvc|security codes?|expiry dates?|pin(?: codes?)?\\b|passwords?|passcodes?|passphrases?|log-?in (?:details|credentials)|credentials|bank (?:account|details)|routing numbers?|iban|social security(?: numbers?)?|ssn|seed phrases?|recovery phrases?|private keys?|one-time (?:codes?|passwords?)|otp|(?:2fa|mfa|verification) codes?|payment (?:details|information|info|methods?)|billing (?:details|information))';
const API_SECRET = '(?:api[ _-]?keys?|access tokens?|bearer tokens?|secret keys?|client secrets?)';

const rule = (id: string, weight: number, reason: string, source: string, flags = 'i'): Rule => ({
  id,
  weight,
  reason,
  pattern: new RegExp(source, flags),
});

export const RULES: readonly Rule[] = [
  // --- overriding the model's instructions
  rule(
    'override-instructions',
    1,
    'tells the model to ignore its instructions',
    String.raw`\b(?:ignore|disregard|forget)\b[^.\n]{0,40}?\b(?:previous|prior|preceding|above|earlier|all|any|your|system|original|other|these|those)\b[^.\n]{0,25}?\b(?:instructions?|prompts?|rules|guidelines|guidance|directions|directives|context|messages|guardrails|policies|constraints)\b|\b(?:override|bypass|abandon|discard)\b[^.\n]{0,20}?\b(?:previous|prior|preceding|above|earlier|your|system|original)\b[^.\n]{0,15}?\b(?:instructions?|prompts?|guidelines|directives|guardrails)\b`,
  ),
  rule(
    'override-instructions',
    1,
    'tells the model to ignore its instructions',
    String.raw`\b(?:ignore|disregard|forget)\b\s+(?:everything|anything|all)\s+(?:above|before|else|(?:you|you've|you have) (?:were|been|have been) told)|\bignore (?:the rest of|everything (?:else )?(?:in|on)) (?:this|the) (?:page|document|text|context|sources?)|\b(?:ignore|disregard|forget)\s+(?:the|all|any)?\s*(?:context|instructions|text|rules|prompt)\s+(?:above|before|so far|you were given)`,
  ),
  rule(
    'override-instructions',
    1,
    'tells the model to ignore its instructions',
    String.raw`\b(?:ignore|disregard|forget)\s+(?:what|whatever|anything|everything)\s+(?:you\s+(?:were|have been|'ve been)\s+)?(?:told|instructed|given|asked|taught)\b|\b(?:previous|prior|earlier|original|existing|your|all other)\s+(?:\w+\s+)?(?:instructions|guidance|rules|directives|prompts?)\s+(?:no longer appl(?:y|ies)|(?:are|is)\s+(?:now\s+)?(?:void|cancelled|revoked|obsolete|superseded|replaced))\b|\b(?:overrides?|supersedes?)\s+(?:whatever|what|anything|all|any|your)\s+(?:\w+\s+){0,2}(?:told|instructions|guidance|rules|prompt|operator|developers?)\b|\bfollow only (?:the|these|this) (?:text|instructions|note|lines?)\b`,
  ),
  rule(
    'override-instructions',
    1,
    'tells the model to ignore its instructions',
    String.raw`\b(?:set aside|put aside|drop|scrap|throw out|abandon|suspend|cancel|replace)\s+(?:all\s+)?(?:of\s+)?your\s+(?:earlier|previous|prior|original|initial|current|existing)\s+(?:instructions|directions|guidance|rules|directives|prompts?|tasks?)\b|\b(?:instructions|directions|guidance|directives|prompts?)\s+you\s+(?:received|were given|got|have been given|have)\b[^.\n]{0,30}\b(?:cancelled|canceled|void|revoked|obsolete|superseded|no longer (?:apply|valid))\b`,
  ),
  rule(
    'persona',
    1,
    'tries to give the model a new role',
    String.raw`\byour\s+(?:real|actual|true|new|only|primary|hidden)\s+(?:task|job|goal|purpose|mission|role|objective)\s+(?:is|now is|will be)\b`,
  ),
  rule(
    'override-instructions',
    1,
    "acts on the model's own instructions",
    String.raw`\b(?:stop following|overwrite|override|replace|change|disable|remove|delete|reset|turn off|switch off|lift)\s+(?:all\s+)?(?:your|the (?:prior|previous|earlier|original|system|initial))\s+(?:system\s+)?(?:prompt|guidelines|instructions|rules|restrictions|directives|programming|content rules|safety rules|filters|guardrails)\b|\byou\s+(?:no longer have|have no|are free of|are not bound by|are released from|are freed from)\s+(?:any\s+)?(?:restrictions|limits|rules|guidelines|filters|constraints)\b`,
  ),
  // The model's own faculties in the second person ("your guidelines", "your browsing tool",
  // "the rules you were given", "when you summarise this"): a reader has none of them.
  rule(
    'model-faculties',
    0.6,
    "speaks of the model's own instructions or tools",
    String.raw`\byour\s+(?:\w+\s+)?(?:guidelines|instructions|restrictions|programming|system message|training data|browsing|search tool|web tool|fetch tool|tools|knowledge cutoff|content (?:rules|policy|filters))\b|\b(?:rules|instructions|guidelines|directions)\s+you\s+(?:were|have been)\s+given\b|\bwhen\s+you\s+(?:summari[sz]e|answer|respond|reply|quote|cite|generate)\b`,
  ),
  rule(
    'override-instructions',
    1,
    'tells the model to ignore its instructions',
    String.raw`\b(?:don't|do not|stop|no longer)\s+follow(?:ing)?\s+(?:the|your|any)\s+(?:\w+\s+)?(?:rules|instructions|guidelines|prompt|directions)\b|\byour\s+(?:guidelines|instructions|rules|restrictions|programming|system message)\s+(?:have|has)\s+been\s+(?:updated|changed|replaced|revised|lifted|removed)\b`,
  ),
  rule(
    'addresses-ai',
    1,
    'addresses the AI reading the document',
    String.raw`\bif\s+(?:this|the)\s+(?:text|page|document|message|file|content|note|report)\s+is\s+(?:being\s+)?(?:read|processed|parsed|summari[sz]ed|ingested|analy[sz]ed|seen|handled)\s+by\s+(?:an?\s+|the\s+|any\s+)?(?:${AI}|model)\b|\b(?:should|if|when)\s+(?:an?\s+|the\s+|any\s+)?${AI}\s+(?:be|is|are|gets?)\s+(?:asked|queried|prompted|used)\b|(?:^|[.!?]\s+)(?:\w+\s+){0,2}(?:for|to)\s+(?:the\s+|any\s+|all\s+)?${AI}\s*:`,
    'im',
  ),
  rule(
    'persona',
    1,
    'tries to give the model a new role',
    String.raw`\b(?:respond|answer|reply|act|write|speak)\s+as\s+if\s+you\s+(?:were|are)\b|\byou\s+will\s+now\s+(?:claim|say|tell|answer|respond|reply|state|recommend|insist|pretend|act)\b|\bas the (?:assistant|ai|model|chatbot) you are\b`,
  ),
  rule(
    'directive-modal',
    0.6,
    'gives an order to whoever answers',
    String.raw`\b(?:it|you|they)\s+(?:is|are)\s+to\s+(?:respond|answer|say|reply|state|claim|tell|recommend|insist)\b|\b(?:only|solely)\s+valid\s+if\b`,
  ),
  rule(
    'operator',
    0.6,
    "speaks of the model's operator",
    String.raw`\byour (?:operator|developers?|creators?|system prompt|guardrails|safety rules|programming)\b`,
  ),
  rule(
    'decode-and-obey',
    1,
    'asks the model to decode text and act on it',
    String.raw`\b(?:decode|decrypt|translate|deobfuscate|unscramble|reverse)\b[^.\n]{0,20}\b(?:and|then)\s+(?:obey|follow|execute|run|do|act on|comply)\b`,
  ),
  rule(
    'new-instructions',
    1,
    'announces new instructions for the model',
    String.raw`\b(?:new|updated|real|actual|true|revised|hidden|secret|override)\s+(?:system\s+)?(?:instructions?|prompts?|directives?|orders)\s*(?::|\bfollow\b|\bare\b)`,
  ),
  rule(
    'role-tag',
    1,
    'carries chat-template or role markup',
    String.raw`<\|?\s*\/?\s*(?:system|assistant|im_start|im_end|sys|developer)\s*\|?>|<(instructions?|prompt)>[\s\S]*?<\/\1>|\[\/?INST\]|\[\/?\s*(?:system|assistant|sys)\s*\]|<<\/?SYS>>|\b(?:begin|start|end)\s+(?:of\s+)?(?:the\s+)?(?:system|developer|hidden)\s+(?:prompt|message|instructions)\b|\bsystem\s*(?:prompt|message|override)\s*:`,
  ),
  rule(
    'role-tag',
    1,
    'carries chat-template or role markup',
    String.raw`^\s*#{1,6}\s*(?:instructions?|system prompt|new instructions|assistant|response)\s*:?\s*$|^\s*(?:system|developer)\s*:\s*(?:you|ignore|from|always|never|as|the (?:assistant|ai|model))\b`,
    'im',
  ),
  rule(
    'persona',
    1,
    'tries to give the model a new role',
    String.raw`\b(?:you are|you're)\s+now\s+(?:a|an|the|no longer|free|unrestricted|jailbroken|in\s+\w+\s+mode|dan|my)\b|\b(?:act|behave|pretend|roleplay|role-play)\s+(?:as|like|to be)\s+(?:an?\s+)?(?:unrestricted|jailbroken|different|evil|dan|system|admin(?:istrator)?|developer|root)\b`,
  ),
  // "You are now ready to ship" is a tutorial; "you are now X" counts only beside other evidence.
  rule(
    'persona',
    0.5,
    'tries to give the model a new role',
    String.raw`\byou are now\b|\bfrom now on,?\s+(?:you|answer|respond|reply|always|never|act)\b|\b(?:developer|god|jailbreak|dan)\s+mode\b`,
  ),

  // --- addressing the model
  rule(
    'addresses-ai',
    1,
    'addresses the AI reading the document',
    String.raw`\b(?:note|message|memo|reminder|instructions?|attention|notice|hint|directive|important|p\.?s\.?)\s*(?:to|for)\s+(?:the\s+|any\s+|all\s+|every\s+|an?\s+|our\s+|you,?\s+(?:the\s+)?)?${AI}\b`,
  ),
  rule(
    'addresses-ai',
    1,
    'addresses the AI reading the document',
    String.raw`(?:^|[.!?]\s+)(?:${AI}|language model)\s*[,!]\s+\w|[,;]\s*(?:${AI}|model)\s*[:!]|\b(?:please|hey|ok(?:ay)?|now|listen|look|so),?\s+(?:${AI}|model)\s*[,:!]|\b(?:message|note|text|section|paragraph|line|passage)\s+(?:is\s+)?(?:meant\s+|intended\s+|written\s+)?(?:only\s+)?for\s+(?:the\s+|an?\s+)?(?:${AI}|model)\b|\b${AI}\s+(?:directives?|instructions?|rules?|commands?|orders?|policy)\s*:|\b(?:rules?|directives?|commands?|orders?|policy|policies)\s+(?:for|to)\s+(?:the\s+|any\s+|all\s+|every\s+)?${AI}\b`,
    'im',
  ),
  rule(
    'addresses-ai',
    1,
    'addresses the AI reading the document',
    String.raw`\b(?:dear|hey|hello|hi|attention)\s*,?\s+${AI}\b`,
  ),
  rule(
    'addresses-ai',
    1,
    'addresses the AI reading the document',
    String.raw`\bif\s+you(?:\s+are|'re|’re)\s+(?:an?\s+)?(?:ai\b|a\.i\.|artificial|llm|large language|language model|assistant|chat ?bot|bot\b|automated|machine|model|gpt)`,
  ),
  rule(
    'addresses-ai',
    1,
    'addresses the AI reading the document',
    String.raw`\b${AI}\s+(?:that\s+|which\s+|who\s+)?(?:are\s+|is\s+)?(?:quoting|citing|using|handling|seeing|read(?:s|ing)?|process(?:es|ing)?|pars(?:e|es|ing)|summari[sz](?:e|es|ing)|index(?:es|ing)?|ingest(?:s|ing)?|answering (?:from|with|using)|retriev(?:e|es|ing)|consum(?:e|es|ing)|given)\s+(?:this|these|the following)\b|\b(?:whoever|anyone|anything|any (?:system|tool|program|software|service))\s+(?:that\s+|who\s+|which\s+)?(?:is\s+)?(?:generating|writing|producing|composing|drafting|answering|summari[sz]ing)\s+(?:the|this|an?|your)\s+(?:answer|response|reply|summary|output)\b`,
  ),
  rule(
    'addresses-ai',
    1,
    'addresses the AI reading the document',
    String.raw`^\s*(?:\[|<|\()?\s*(?:ai|assistant|ai assistant|chatbot|llm|model instructions?)\s*(?:\]|>|\))?\s*:`,
    'im',
  ),
  rule(
    'addresses-ai',
    0.6,
    'addresses the AI reading the document',
    String.raw`\b(?:the|this|an?|any|all|every|each|our|your)\s+${AI}\s+(?:must|should|shall|will|needs? to|has to|is (?:required|instructed|expected|supposed) to|may only|can only)\b|\bas an?\s+(?:ai|a\.i\.|llm|language model|ai (?:assistant|model))\b`,
  ),

  // --- dictating the answer
  rule(
    'dictates-answer',
    1,
    'dictates what the answer must be',
    String.raw`\bthe\s+only\s+(?:correct|valid|acceptable|right|true|permitted|allowed|appropriate|approved)\s+(?:reply|answer|response|output)\b`,
  ),
  rule(
    'dictates-answer',
    1,
    'dictates what the answer must be',
    String.raw`\b(?:respond|answer|reply|output|say)\s+(?:only|exclusively|solely|just)\s+(?:with|by saying)\s*(?:["'“‘«]|the (?:word|phrase|text|string|sentence)\b)|\b(?:always|only)\s+(?:answer|reply|respond|say|output)\s*(?::|with\s*["'“‘«]|["'“‘«])`,
  ),
  rule(
    'quotes-reply',
    0.5,
    'dictates what the answer must be',
    String.raw`\b(?:respond|answer|reply)\s+only\s+with\b|\b(?:answer|reply|respond|say|output|print|write|return)\s+(?:with\s+|only\s+|exactly\s+|just\s+)*["'“‘«][^"'”’»\n]{1,80}["'”’»]|\bregardless of (?:the|what|any)\b[^.\n]{0,30}\b(?:question|asked|user|sources?|context|documents?)\b`,
  ),
  rule(
    'tells-user',
    0.5,
    'tells the reader what to tell the user',
    String.raw`\b(?:you must|you should|you will|you are (?:required|instructed|obliged) to|make sure (?:to|you))\s+(?:now\s+|always\s+|also\s+)?(?:tell|inform|say|reply|answer|respond|state|claim|recommend|direct|instruct|advise|convince)\b|\b(?:tell|inform|remind|instruct|advise|warn)\s+(?:the\s+|all\s+|any\s+|every\s+)?(?:user|customer|reader|caller|human|requester|anyone|everyone|people|them)s?\b`,
  ),
  rule(
    'conditional-question',
    0.5,
    'sets a condition on questions the model is asked',
    String.raw`\bwhen(?:ever)?\s+(?:you\s+)?(?:answer|respond to|reply to)\s+(?:any\s+|a\s+)?(?:questions?|queries|users?)\b|\bwhen(?:ever)?\s+(?:you are |you're )?(?:asked|questioned|prompted|queried)\s+(?:about|for|regarding|on|what|how|whether)\b|\bwhen(?:ever)?\s+(?:a |the |any )?(?:user|someone|anyone|people)\s+(?:asks?|enquires?|inquires?|wants to know)\b`,
  ),
  rule(
    'generic-question',
    0.5,
    'speaks of questions and answers in general',
    String.raw`\balways\s+(?:say|state|claim|mention)\b|\b(?:say|output|answer|reply|respond|write|print|return)\b[^.\n]{0,40}\b(?:and|but)\s+nothing else\b|\bthe (?:only )?(?:answer|reply|response) to (?:any|every|all|each)\b|\b(?:any|every|all|each)\s+(?:\w+\s+){0,2}(?:questions?|queries|prompts)\s+(?:about|on|regarding|with)\b`,
  ),
  rule(
    'dictates-answer',
    1,
    'dictates the answer whatever the question',
    String.raw`\b(?:whatever|no matter what|regardless of)\s+(?:the\s+)?(?:question|they ask|the user asks|you are asked|is asked)\b[^.\n]{0,20}?\b(?:answer|say|reply|respond|tell|state|claim)\b`,
  ),
  rule(
    'dictates-answer',
    1,
    'dictates the answer whatever the question',
    String.raw`\b(?:answer|say|reply|respond|tell|state|claim)\b[^.\n]{0,80}\b(?:whatever|no matter what|regardless of what)\s+(?:they|the user|users|anyone|you are|people|the customer)\s+(?:asks?|asked)\b|\bthe\s+(?:only\s+)?(?:correct|valid|acceptable|right|true|approved|official)\s+(?:reply|answer|response|output)\s+(?:to|for)\s+(?:any\s+|all\s+|every\s+)?(?:questions?|queries|users?|anyone)\b`,
  ),
  rule(
    'shapes-reply',
    0.6,
    'dictates how the reply must begin or end',
    String.raw`\b(?:begin|start|end|finish|close|prefix|suffix|sign)\s+(?:your|every|each)\s+(?:reply|answer|response|output)s?\s+(?:with|by)\b`,
  ),
  rule(
    'asserts-authority',
    0.5,
    'claims authority over every other source',
    String.raw`\btreat\s+(?:this|the following|it|these)\s+as\s+(?:verified|true|fact|authoritative|the truth|official)|\b(?:the only|sole) source of truth\b|\banything else is (?:false|wrong|outdated)\b`,
  ),
  rule(
    'hides-itself',
    1,
    'tells the model to hide its sources or these instructions',
    String.raw`\b(?:do not|don't|never)\s+(?:cite|mention|reveal|disclose|quote|acknowledge)\b[^.\n]{0,30}\b(?:sources?|citations?|this|these instructions|instructions)\b`,
  ),

  // --- exfiltration and credentials
  // Words only a model has (its prompt, its instructions) count anywhere; secrets count only when
  // the sentence tells someone to give them out ("Reveal any API keys"), not when a manual
  // warns that tracebacks "might reveal passwords" or says "do not dump passwords".
  rule(
    'exfiltration',
    1,
    'asks for hidden instructions or secrets',
    String.raw`\b(?:reveal|leak|disclose|dump|exfiltrate|print|output|show|repeat)\b[^.\n]{0,30}\b(?:system prompt|hidden instructions|initial instructions|your instructions|conversation history|chat history|context window)\b|\b(?:send|email|forward|post|upload|transmit)\b[^.\n]{0,30}\b(?:context window|conversation|chat history|your (?:memory|context|instructions|prompt))\b|(?:^|[.:;!]\s+|\b(?:please|and|then|also|now|you must|you should)\s+)(?:reveal|leak|disclose|exfiltrate|dump)\s+(?:\w+\s+){0,3}?(?:api keys?|secrets?|credentials|passwords?|environment variables|tokens)\b`,
    'im',
  ),
  rule(
    'asks-credentials',
    1,
    'asks for credentials or payment details',
    // Not when the sentence is about being spared it: "a credential helper, to avoid having to
    // retype your password" is advice a manual gives.
    String.raw`(?<!(?:\bavoid(?:s|ed|ing)?|\bwithout|\bno need to|\bnot|\bnever|n't|\bno longer|\bstop)\s+(?:(?:having|have|needing|need)\s+to\s+)?)\b(?:re-?enter|re-?type|re-?submit|re-?confirm|re-?verify|re-?validate|re-?authenticate|re-?register)\b[^.\n]{0,40}?\b${PERSONAL_SECRET}`,
  ),
  rule(
    'asks-credentials',
    1,
    'asks for credentials to be sent somewhere',
    String.raw`\b(?:send|email|e-mail|forward|paste|share|reply with|dm|message)\b[^.\n]{0,40}?\b${PERSONAL_SECRET}\b[^.\n]{0,40}?(?:\b(?:to|at|with)\s+[\w.+-]+@[\w-]+\.[\w.]+|${URL}|\bin (?:your|the) (?:reply|answer|response)\b)`,
  ),
  // An API guide sends keys to its API's URL all the time; to a mailbox or into an answer, never.
  rule(
    'asks-credentials',
    1,
    'asks for credentials to be sent somewhere',
    String.raw`\b(?:send|email|e-mail|forward|paste|share|reply with|dm|message|include|print|output)\b[^.\n]{0,40}?\b${API_SECRET}\b[^.\n]{0,40}?(?:\b(?:to|at|with)\s+[\w.+-]+@[\w-]+\.[\w.]+|\bin (?:your|the|every) (?:reply|answer|response)\b)`,
  ),
  // Telling the reader to type a password or card details in at a link is the phishing shape,
  // whoever the sentence addresses; a help page that needs a link says where to click, not what
  // to type there.
  rule(
    'asks-credentials',
    1,
    'asks for credentials or payment details at a link',
    String.raw`\b(?:verify|confirm|validate|update|provide|enter|submit|share|send|type|supply)\b[^.\n]{0,40}?\b${PERSONAL_SECRET}[^\n]{0,60}?${URL}|${URL}[^\n]{0,40}?\b(?:verify|confirm|validate|update|provide|enter|submit|type|supply)\b[^.\n]{0,40}?\b${PERSONAL_SECRET}`,
  ),
  rule(
    'asks-credentials',
    1,
    'asks for secrets in the conversation',
    String.raw`\b(?:share|send|post|paste|type|enter|give)\b[^.\n]{0,30}\b(?:${PERSONAL_SECRET}|${API_SECRET}|session tokens?|auth(?:entication)? tokens?|cookies?)\b[^.\n]{0,20}\b(?:in|into|to)\s+(?:the|this|our)\s+(?:chat|conversation|thread|reply|answer)\b|(?:^|[.:;!]\s+|\b(?:please|and|then|also|now|first)\s+)(?:collect|obtain|gather|harvest|ask for|ask them for|get)\s+(?:the\s+)?(?:\w+'s\s+|their\s+|your\s+)?(?:\w+\s+)?(?:passwords?|pin(?: codes?)?\b|cvv2?|cvc|security codes?|one-time codes?|seed phrases?|online banking (?:details|password))|\b(?:${PERSONAL_SECRET}|${API_SECRET})\b[^.\n]{0,40}\b(?:paste|include|put|write|add|repeat|quote)\s+(?:it|them)\s+(?:in|into)\s+(?:your|the|this)\s+(?:answer|reply|response|output|message|chat)\b|\b(?:include|put|add|insert|paste|repeat|write|type|enter)\b[^.\n]{0,40}\b(?:${PERSONAL_SECRET}|${API_SECRET})[^.\n]{0,30}\b(?:in|into)\s+(?:your|the|this)\s+(?:next\s+)?(?:message|reply|answer|response|output|chat|conversation)\b|\b(?:ask|tell|get|have|request|require)\s+(?:the\s+|every\s+|all\s+)?(?:users?|customers?|callers?|readers?|visitors?)\s+(?:to|for)\b[^.\n]{0,40}\b(?:cvv2?|cvc|security codes?|pin(?: codes?)?\b|passwords?|passcodes?|full card numbers?|seed phrases?|recovery phrases?|one-time (?:codes?|passwords?)|online banking)`,
  ),
  rule(
    'asks-credentials',
    0.5,
    'asks for credentials or payment details',
    String.raw`\b(?:verify|confirm|validate|update|provide|enter|submit|share|send|email|paste|give|type|supply)\b[^.\n]{0,40}?\b${PERSONAL_SECRET}`,
  ),
  rule(
    'redirects-to-url',
    0.5,
    'sends the reader to a URL',
    String.raw`\b(?:visit|go to|navigate to|head to|click|open|follow|fetch|load|retrieve|request|ping|log ?in (?:at|on|via)|sign ?in (?:at|on|via)|proceed to|browse to|redirect(?:ed)? to|be sent to)\b[^.\n]{0,40}?${URL}`,
  ),

  // --- tool calls
  rule(
    'tool-call',
    1,
    'contains tool-call syntax',
    String.raw`["']?(?:tool|tool_name|function|name|action|recipient_name)["']?\s*:\s*["'][\w.-]+["']\s*,\s*["']?(?:arguments|args|input|parameters|params|action_input|tool_input)["']?\s*:`,
  ),
  rule(
    'tool-call',
    1,
    'contains tool-call syntax',
    String.raw`\b(?:function_call|tool_calls?|tool_use|tool_code)["']?\s*[:=({]|^\s*action input\s*:|<\/?\s*(?:tool_call|function_call|tool_use|function=|invoke\b)|(?<![\w.$])(?:calc|lookup|http_fetch|web_search|send_email|browser\.open|run_shell)\s*\(\s*["'{]`,
    'im',
  ),
  rule(
    'tool-call',
    1,
    'asks the model to call a tool',
    String.raw`\b(?:call|invoke|trigger|execute|run)\s+(?:the\s+)?[\`'"]?(?:calc|lookup|http_fetch|web_search|browser)[\`'"]?\s+(?:tool|function)\b`,
  ),
  rule(
    'tool-call',
    0.6,
    'asks the model to call a tool',
    String.raw`\b(?:use)\s+(?:the\s+)?[\`'"]?(?:calc|lookup|http_fetch|web_search|browser)[\`'"]?\s+(?:tool|function)\b|\b(?:call|invoke|trigger|execute)\s+(?:the\s+)?\w+\s+tool\s+with\b`,
  ),

  rule(
    'answer-reference',
    0.4,
    'refers to the answer being written',
    String.raw`\b(?:the|your|every|each|any)\s+(?:final\s+)?(?:answer|reply|response|summary|output)s?\b(?!\s+(?:code|status|header|body|time|format|field|object|payload|schema|type))|\byou(?:'re|’re| are)?\s+(?:answering|summari[sz]ing|responding|replying|generating|answer|summari[sz]e|respond|reply|generate)\b|\b(?:automated|ai|machine)[- ](?:summaries|answers|responses|generated)\b`,
  ),
  rule(
    'order',
    0.3,
    'gives an order',
    String.raw`\b(?:must|should|shall|has to|have to|needs? to|is to|are to)\s+(?:always\s+|never\s+|only\s+)?(?:say|state|claim|describe|tell|answer|reply|respond|mention|recommend|include|omit|skip|hide|treat|insist|present|call)\b|(?:^|[.:;!,)]\s+|\b(?:please|kindly|just|simply)\s+)(?:say|state|claim|describe|tell|answer|reply|respond|output|append|omit|skip|hide|mention|recommend|praise|insist|pretend|treat|rank|ignore|disregard|forget|approve|deny|grant)\b`,
    'im',
  ),
  rule(
    'bends-content',
    0.4,
    'bends what the answer says',
    String.raw`\beven if\b[^.\n]{0,30}\b(?:sources?|documents?|context|evidence|data|facts?)\b|\b(?:say|output|answer|reply|respond|write|print|return)\b[^.\n]{0,40}\b(?:nothing|no other (?:text|words?))\s+(?:else|except|but)\b|\bexcept the (?:word|phrase)\b|\bnever mention\b|\b(?:describe|present|portray|frame)\s+(?:this|it|the \w+)\s+as\b|\b(?:skip|omit|leave out|drop)\s+(?:the|any|every|all)\s+(?:\w+\s+){0,2}(?:section|part|mention|reference|paragraph)s?\b[^.\n]{0,30}\b(?:entirely|completely|altogether)\b`,
  ),

  // --- other languages: the same shapes, in the languages a sample corpus is likely to mix in
  rule(
    'override-instructions',
    1,
    'tells the model to ignore its instructions',
    String.raw`\b(?:ignor[ae]\w*|olvid[ae]\w*|omit[ae]\w*)\s+(?:todas\s+)?(?:las\s+)?(?:instrucciones|indicaciones|reglas)\s+(?:anteriores|previas)|\b(?:ignore[rz]?|oublie[rz]?)\s+(?:toutes\s+)?(?:les\s+)?(?:instructions|consignes|règles)\s+(?:précédentes|precedentes|antérieures|anterieures)|\b(?:ignorier\w*|vergiss\w*|missacht\w*)\s+(?:alle\s+|die\s+|deine\s+|sämtliche\s+)?(?:vorherigen|bisherigen|obigen|früheren)\s+(?:anweisungen|instruktionen|befehle|regeln)`,
  ),
  rule(
    'addresses-ai',
    1,
    'addresses the AI reading the document',
    String.raw`\b(?:nota|mensaje|aviso)\s+para\s+(?:la\s+|el\s+|los\s+)?(?:ia|inteligencia artificial|asistentes?|modelos? de lenguaje)\b|\b(?:note|message|consigne)\s+(?:à|a|pour)\s+(?:l'|l’|la\s+|le\s+|les\s+)?(?:ia|assistants?|intelligence artificielle|modèles? de langage)\b|\b(?:hinweis|nachricht|notiz|anweisung)\s+(?:an|für)\s+(?:die\s+|den\s+|das\s+|alle\s+)?(?:ki|assistenten|sprachmodelle?|chatbots?)\b`,
  ),
];

// --- the grammar of an order to whoever writes the answer, with no particular vocabulary: a
// reference to the answer being written, an order, and a bent to the content. Each is common in
// ordinary documentation alone; it takes two or three in one sentence to quarantine.
/** The grammar rules read prose only: code is full of imperatives, returns and responses. */
export const PROSE_ONLY: ReadonlySet<string> = new Set(['answer-reference', 'order', 'bends-content']);

/** Rules for letter-spaced text read with its spaces removed ("ignoreallpreviousinstructions"). */
export const SQUASHED_RULES: readonly Rule[] = [
  rule(
    'override-instructions',
    1,
    'tells the model to ignore its instructions (letter-spaced)',
    '(?:ignore|disregard|forget)(?:all|any|the|your)*(?:previous|prior|above|earlier|system)?(?:instructions?|prompts?|rules)',
  ),
  rule(
    'addresses-ai',
    1,
    'addresses the AI reading the document (letter-spaced)',
    `(?:noteto|messagefor|messageto|noteforthe|notetothe)(?:the)?(?:ai|assistant|llm|model)`,
  ),
  rule('persona', 1, 'tries to give the model a new role (letter-spaced)', 'youarenow|systemprompt'),
];
