//! Token estimates: a typical count when a provider reports none, and an upper bound for
//! reservations.

use crate::request::Message;

/// Tokens added per message by chat templates (role markers, separators). Generous on purpose:
/// common templates use 3 to 6.
pub const MESSAGE_OVERHEAD_TOKENS: u64 = 8;

/// Tokens a template adds once per request (the assistant turn's opening).
pub const REQUEST_OVERHEAD_TOKENS: u64 = 8;

/// Typical token count of `text`: UTF-8 bytes / 4, rounded up, at least 1. English text runs at
/// about 4 bytes per token in GPT and Llama tokenizers; this is an estimate, not a bound.
pub fn estimate_tokens(text: &str) -> u64 {
    let bytes = u64::try_from(text.len()).unwrap_or(u64::MAX);
    bytes.div_ceil(4).max(1)
}

/// Typical input token count of a conversation, by [`estimate_tokens`] over its joined texts.
pub fn estimate_input_tokens(messages: &[Message]) -> u64 {
    let bytes: u64 = messages
        .iter()
        .map(|m| u64::try_from(m.content.len()).unwrap_or(u64::MAX))
        .fold(0, u64::saturating_add);
    bytes.div_ceil(4).max(1)
}

/// Upper bound on the input tokens of a conversation: every byte of every role and content
/// counted as one token, plus template overheads. Byte-level BPE tokenizers (GPT, Llama 3) and
/// SentencePiece with byte fallback never produce more tokens than bytes, so only the template's
/// special tokens need the allowance.
pub fn input_upper_bound(messages: &[Message]) -> u64 {
    messages
        .iter()
        .map(|m| {
            let bytes = m.role.len().saturating_add(m.content.len());
            u64::try_from(bytes)
                .unwrap_or(u64::MAX)
                .saturating_add(MESSAGE_OVERHEAD_TOKENS)
        })
        .fold(REQUEST_OVERHEAD_TOKENS, u64::saturating_add)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn estimate_rounds_up_and_is_at_least_one() {
        assert_eq!(estimate_tokens(""), 1);
        assert_eq!(estimate_tokens("abc"), 1);
        assert_eq!(estimate_tokens("abcd"), 1);
        assert_eq!(estimate_tokens("abcde"), 2);
        // Counts bytes, not characters: four 2-byte characters are 8 bytes.
        assert_eq!(estimate_tokens("éééé"), 2);
    }

    #[test]
    fn upper_bound_counts_bytes_and_overheads() {
        let msgs = vec![
            Message::new("system", "be brief"),
            Message::new("user", "hi"),
        ];
        let expected = (6 + 8 + MESSAGE_OVERHEAD_TOKENS)
            + (4 + 2 + MESSAGE_OVERHEAD_TOKENS)
            + REQUEST_OVERHEAD_TOKENS;
        assert_eq!(input_upper_bound(&msgs), expected);
        assert!(input_upper_bound(&msgs) >= estimate_input_tokens(&msgs));
        assert_eq!(estimate_input_tokens(&msgs), 3);
    }
}
