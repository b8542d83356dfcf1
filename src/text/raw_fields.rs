//! Raw CSV text followed field by field, as the CSV reader splits it: where each field starts, and
//! where a quoted field left open opens. The reader gives fields, not places; the messages that
//! locate a problem in the raw line need these.

/// Follows the fields of `raw` (CSV text from a record's start) as the reader does: a quote opens
/// a field only at its start, `""` inside one is a quote, and inside an unquoted field (`6"5`) a
/// quote is a character like any other. `next_field` is told the offset of each field after the
/// first, and stops the scan by answering `false`. Returns where a quoted field left open at the
/// end opens, if one is.
fn follow_fields(raw: &[u8], mut next_field: impl FnMut(usize) -> bool) -> Option<usize> {
    let (mut open, mut field_start, mut at) = (None, true, 0);
    while at < raw.len() {
        let byte = raw[at];
        match open {
            Some(_) if byte == b'"' && raw.get(at + 1) == Some(&b'"') => at += 1,
            Some(_) if byte == b'"' => open = None,
            Some(_) => {}
            None if byte == b'"' && field_start => open = Some(at),
            None => {}
        }
        field_start = open.is_none() && matches!(byte, b',' | b'\n' | b'\r');
        at += 1;
        if open.is_none() && byte == b',' && !next_field(at) {
            return None;
        }
    }
    open
}

/// Where the quoted field left open at the end of `record` (raw CSV text from a record's start)
/// opens, if one is.
pub(crate) fn quote_left_open(record: &[u8]) -> Option<usize> {
    follow_fields(record, |_| true)
}

/// The column (counted from 1) where field `index` of the raw line `raw` starts, past an opening
/// quote.
pub(crate) fn field_column(raw: &[u8], index: usize) -> usize {
    let (mut field, mut start) = (0, 0);
    if index > 0 {
        follow_fields(raw, |at| {
            (field, start) = (field + 1, at);
            field < index
        });
    }
    start + 1 + usize::from(raw.get(start) == Some(&b'"'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quote_inside_an_unquoted_field_opens_nothing() {
        assert_eq!(quote_left_open(b"p,6\"5 tall\n"), None);
        assert_eq!(quote_left_open(b"p,\"say \"\"hi\"\"\",x\n"), None);
        assert_eq!(quote_left_open(b"p,\"a\nb\"\n"), None);
        assert_eq!(quote_left_open(b"p,x\"y,\"open\nq\n"), Some(6));
        assert_eq!(field_column(b"6\"5 tall,x...,s", 1), 10);
        assert_eq!(field_column(b"\"a,\"\"b\",\"c\",d", 1), 10);
        assert_eq!(field_column(b"\"a,\"\"b\",\"c\",d", 2), 13);
        assert_eq!(field_column(b"a,b", 0), 1);
    }
}
