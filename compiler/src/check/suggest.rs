//! "Did you mean" suggestions for misspelled names.

/// The candidate closest to `name` by edit distance, if it is close enough to be a plausible
/// typo: at most a third of the name's length (and at least one edit).
pub fn closest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (name.chars().count() / 3).max(1);
    let mut best: Option<(usize, &str)> = None;
    for candidate in candidates {
        if candidate == name {
            continue;
        }
        let distance = edit_distance(name, candidate);
        if distance > limit {
            continue;
        }
        let better = match best {
            None => true,
            Some((d, c)) => distance < d || (distance == d && candidate < c),
        };
        if better {
            best = Some((distance, candidate));
        }
    }
    best.map(|(_, candidate)| candidate)
}

/// Edit distance over characters where swapping two neighbours counts as one edit (optimal
/// string alignment), since `bsah` for `bash` is the typical slip.
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let width = b.len() + 1;
    let mut table = vec![0usize; (a.len() + 1) * width];
    for i in 0..=a.len() {
        table[i * width] = i;
    }
    for (j, cell) in table.iter_mut().enumerate().take(width) {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (table[(i - 1) * width + j] + 1)
                .min(table[i * width + j - 1] + 1)
                .min(table[(i - 1) * width + j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(table[(i - 2) * width + j - 2] + 1);
            }
            table[i * width + j] = best;
        }
    }
    table[a.len() * width + b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_close_names_only() {
        let names = ["bash", "llm", "branch", "result", "results"];
        assert_eq!(closest("bsah", names), Some("bash"));
        assert_eq!(closest("reslt", names), Some("result"));
        assert_eq!(closest("resultz", names), Some("result"));
        assert_eq!(closest("zzz", names), None);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("bsah", "bash"), 1);
    }
}
