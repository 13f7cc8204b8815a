//! Source text with a line index, so byte offsets from the parser become the 1-based line and
//! column (counted in characters, as rustc and ruff do) that diagnostics show.

/// A plan's source and where each of its lines starts.
#[derive(Debug, Clone)]
pub struct SourceFile {
    name: String,
    text: String,
    line_starts: Vec<usize>,
}

/// A 1-based line and a 1-based column counted in Unicode scalar values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineColumn {
    pub line: usize,
    pub column: usize,
}

impl SourceFile {
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> Self {
        let text = text.into();
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Self {
            name: name.into(),
            text,
            line_starts,
        }
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    pub fn line_count(&self) -> usize {
        self.line_starts.len()
    }

    /// Clamps an offset into the text and onto a character boundary, so that positions from
    /// any source (including a parser error at end of input) are always safe to slice with.
    pub fn clamp(&self, offset: usize) -> usize {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        offset
    }

    pub fn line_column(&self, offset: usize) -> LineColumn {
        let offset = self.clamp(offset);
        let line_index = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.line_starts[line_index];
        let column = self.text[start..offset].chars().count() + 1;
        LineColumn {
            line: line_index + 1,
            column,
        }
    }

    /// The text of a 1-based line, without its line terminator.
    pub fn line_text(&self, line: usize) -> &str {
        let Some(&start) = self.line_starts.get(line.wrapping_sub(1)) else {
            return "";
        };
        let end = self
            .line_starts
            .get(line)
            .map_or(self.text.len(), |&next| next);
        self.text[start..end].trim_end_matches(['\n', '\r'])
    }

    /// Byte offset where the 1-based line starts (the end of the text past the last line).
    pub fn line_start(&self, line: usize) -> usize {
        self.line_starts
            .get(line.wrapping_sub(1))
            .copied()
            .unwrap_or(self.text.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_count_characters_not_bytes() {
        let file = SourceFile::new("p.py", "x = 'é'\ny = ｅｖａｌ\n");
        assert_eq!(file.line_column(0), LineColumn { line: 1, column: 1 });
        // `ｅ` starts after "y = " on line 2.
        let offset = file.text().find('ｅ').unwrap();
        assert_eq!(file.line_column(offset), LineColumn { line: 2, column: 5 });
        // The end of the fullwidth name is column 9, although it is 12 bytes further on.
        assert_eq!(
            file.line_column(offset + 12),
            LineColumn { line: 2, column: 9 }
        );
        assert_eq!(file.line_text(2), "y = ｅｖａｌ");
    }

    #[test]
    fn offsets_past_the_end_and_inside_characters_are_clamped() {
        let file = SourceFile::new("p.py", "é");
        assert_eq!(file.clamp(1), 0);
        assert_eq!(file.line_column(99), LineColumn { line: 1, column: 2 });
        assert_eq!(file.line_text(7), "");
    }
}
