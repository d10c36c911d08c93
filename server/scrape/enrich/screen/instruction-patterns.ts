/**
 * Wording that speaks to a language model rather than to a reader: the phrases prompt-injection
 * screening looks for (docs/llm-formats.md#prompt-injection-screening). Our own patterns, each
 * bounded (no nested quantifiers), run on text already cut to a bounded length.
 *
 * `strong` phrases have almost no innocent use in a page; `weak` ones (an imperative about how to
 * answer, a "you are" role) are ordinary in some pages and count only where no reader would see
 * them, or when the model agrees.
 */
export interface InstructionPattern {
  readonly id: string;
  readonly strength: 'strong' | 'weak';
  readonly pattern: RegExp;
}

export const INSTRUCTION_PATTERNS: readonly InstructionPattern[] = [
  {
    id: 'override-instructions',
    strength: 'strong',
    pattern:
      /\b(?:ignore|disregard|forget|override|bypass|skip)\s+(?:all\s+|any\s+|the\s+|of\s+)?(?:your\s+|the\s+|my\s+)?(?:previous|prior|above|earlier|preceding|original|initial|system|existing|former)\s+(?:instructions?|prompts?|directions?|rules|guidelines|guidance|context|messages?|commands?|orders?)\b/i,
  },
  {
    id: 'override-everything-above',
    strength: 'strong',
    pattern:
      /\b(?:ignore|disregard|forget)\s+(?:everything|all|anything|whatever)\s+(?:(?:you\s+(?:were|have\s+been)\s+told\s+)|(?:that\s+came\s+)|(?:written\s+))?(?:above|before|earlier|previously|so\s+far)\b|\b(?:ignore|disregard)\s+the\s+above\b/i,
  },
  {
    id: 'unbound-from-rules',
    strength: 'strong',
    pattern:
      /\bsystem\s+override\b|\byou\s+are\s+no\s+longer\s+(?:bound|restricted|limited)\s+by\b|\b(?:disregard|ignore|abandon|drop)\s+(?:your|their|its)\s+(?:guidelines|rules|instructions|safety\s+rules|policies|programming)\b/i,
  },
  {
    id: 'new-instructions',
    strength: 'strong',
    pattern:
      /\b(?:new|updated|real|actual|true|secret|hidden)\s+(?:system\s+)?(?:instructions?|directives?|prompt)\s*(?::|follow|are\b|is\b)/i,
  },
  {
    id: 'chat-template-marker',
    strength: 'strong',
    pattern:
      /<\|(?:im_start|im_end|system|user|assistant|endoftext)\|>|\[\/?INST\]|<<\/?SYS>>|\[(?:system|SYSTEM)(?:\s+(?:message|prompt|override))?\]|<\/?system(?:[-_ ]prompt)?>|\bBEGIN\s+SYSTEM\s+PROMPT\b|^#{2,4}\s*(?:system|instruction)s?\s*:?\s*$/im,
  },
  {
    id: 'addressed-to-model',
    strength: 'strong',
    pattern:
      /\b(?:attention|note|message|instructions?|important|notice|memo|directive)\s+(?:to|for)\s+(?:any\s+|all\s+|the\s+)?(?:ai|a\.i\.|llms?|large language models?|language models?|assistants?|chat ?bots?|gpt(?:-?\d)?|chatgpt|claude|gemini|copilot|ai agents?|agents?|bots?|crawlers?|scrapers?|models?)\b/i,
  },
  {
    id: 'if-you-are-a-model',
    strength: 'strong',
    pattern:
      /\b(?:if\s+you\s+are|as)\s+an?\s+(?:ai|a\.i\.|llms?|large language models?|language models?|assistants?|chat ?bots?|gpt(?:-?\d)?|chatgpt|claude|gemini|copilot|ai agents?|agents?|bots?|crawlers?|scrapers?|models?)\b[^.\n]{0,120}?\b(?:you\s+must|must|should|shall|do\s+not|don't|never|always|please|ignore|respond|reply|output|say|include|tell|recommend|rate|describe)\b/i,
  },
  {
    id: 'hide-from-user',
    strength: 'strong',
    pattern:
      /\b(?:do\s+not|don't|never)\s+(?:tell|inform|reveal\s+(?:this\s+)?to|mention\s+(?:this\s+)?to|show\s+(?:this\s+)?to|alert|notify)\s+(?:the\s+)?(?:user|human|reader|operator)\b/i,
  },
  {
    id: 'reveal-system-prompt',
    strength: 'strong',
    pattern:
      // "To reveal the system prompt, pass --verbose" is documentation, not an order.
      /(?<!\bto\s)\b(?:reveal|print|output|repeat|leak|disclose|show)\s+(?:me\s+)?(?:your|the)\s+(?:full\s+|entire\s+|original\s+|hidden\s+|initial\s+)?(?:system\s+prompt|system\s+message|instructions|initial\s+prompt|hidden\s+prompt)\b/i,
  },
  {
    id: 'exfiltrate',
    strength: 'strong',
    pattern:
      /\b(?:send|exfiltrate|forward|post|upload|leak|transmit|email)\s+(?:the\s+|all\s+|any\s+|every\s+)?(?:of\s+)?(?:the\s+)?(?:user'?s?\s+|their\s+|your\s+)?(?:data|conversation|chat\s+history|credentials|api[\s_-]?keys?|passwords?|cookies|tokens?|secrets?|personal\s+information|session)\s+to\b/i,
  },
  {
    id: 'jailbreak-persona',
    strength: 'strong',
    pattern:
      /\b(?:you\s+are\s+now|you're\s+now|from\s+now\s+on,?\s+you\s+are|act\s+as|pretend\s+(?:to\s+be|you\s+are))\s+(?:a\s+|an\s+|in\s+)?(?:DAN\b|developer\s+mode|jailbroken|unrestricted|unfiltered|uncensored|evil|an?\s+ai\s+(?:with(?:out)?|that\s+has\s+no)\s+(?:no\s+)?(?:restrictions|rules|limits|filters))/i,
  },
  {
    id: 'when-processing-this-page',
    strength: 'strong',
    pattern:
      /\bwhen\s+(?:you\s+(?:are\s+)?)?(?:summari[sz](?:e|ing)|extract(?:ing)?|read(?:ing)?|process(?:ing)?|analy[sz](?:e|ing)|crawl(?:ing)?|index(?:ing)?)\s+this\s+(?:page|content|document|text|site|article|website)\b[^.\n]{0,80}?\b(?:you\s+must|must|should|always|never|say|state|include|output|respond|reply|mention|describe|add)\b/i,
  },
  {
    // A model named, then told what to do: weak in plain text, certain where no reader sees it.
    id: 'model-directive',
    strength: 'weak',
    pattern:
      /\b(?:ai|a\.i\.|llms?|language models?|assistants?|chat ?bots?|(?:[\w-]+-)?bots?|chatgpt|gpt(?:-?\d)?|claude|gemini|copilot|ai (?:agents?|systems?|models?))\b[^\n]{0,160}?\b(?:must|should|shall|always|never|do\s+not|don't|instead|recommend|tell|say|state|claim|describe|output|append|summari[sz]e|respond|reply|omit|ignore|disregard|rank|rate)\b/i,
  },
  {
    id: 'talks-to-the-reader-model',
    strength: 'strong',
    pattern:
      /\bwhen\s+you\s+(?:answer|reply\s+to|respond\s+to|talk\s+to|help|assist)\s+the\s+user\b|!\[[^\]\n]{0,100}\]\(https?:\/\/[^)\s]{1,300}[?&][^)\s]{0,300}=[^)\s]{0,300}\)/i,
  },
  {
    id: 'keep-it-secret',
    strength: 'weak',
    pattern:
      /\b(?:must\s+not|do\s+not|don't|never)\s+(?:mention|disclose|reveal)\s+(?:this|these|it|that)\b/i,
  },
  {
    id: 'answer-format-order',
    strength: 'weak',
    pattern:
      /\b(?:respond|reply|answer)\s+(?:only\s+)?with\s+(?:only\s+)?["'“][^"'”\n]{1,80}["'”]|\b(?:output|return|say)\s+(?:only\s+)?(?:exactly|verbatim)\b/i,
  },
  {
    id: 'you-are-role',
    strength: 'weak',
    pattern:
      /\byou\s+are\s+(?:an?\s+)?(?:helpful|honest|obedient|compliant)\s+(?:assistant|ai|bot)\b|\byour\s+(?:new\s+)?(?:task|goal|job|role|purpose)\s+(?:is|now\s+is)\s+to\b/i,
  },
  {
    id: 'model-recommendation',
    strength: 'weak',
    pattern:
      /\b(?:ai|a\.i\.|llms?|large language models?|language models?|assistants?|chat ?bots?|gpt(?:-?\d)?|chatgpt|claude|gemini|copilot|ai agents?|agents?|bots?|crawlers?|scrapers?|models?)\b[^.\n]{0,60}?\b(?:must|should|shall)\s+(?:always\s+)?(?:recommend|rate|rank|praise|describe|call|say|state|report)\b/i,
  },
];

export interface PatternMatch {
  readonly id: string;
  readonly strength: 'strong' | 'weak';
  readonly index: number;
  readonly text: string;
}

/** Every pattern that matches `text`, at its first match. */
export function matchInstructions(text: string): PatternMatch[] {
  const matches: PatternMatch[] = [];
  for (const { id, strength, pattern } of INSTRUCTION_PATTERNS) {
    const found = pattern.exec(text);
    if (found !== null) matches.push({ id, strength, index: found.index, text: found[0] });
  }
  return matches;
}
