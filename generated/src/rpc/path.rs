//! Paths of interfaces whose path has `{variables}` (`/ext/bc/{chain}`).

/// Fills `{name}` variables of a path template, percent-encoding anything but
/// letters, digits, `-`, `_`, `.` and `~`.
pub fn fill_path(template: &str, vars: &[(&str, &str)]) -> String {
    let mut out = template.to_string();
    for (name, value) in vars {
        let mut encoded = String::with_capacity(value.len());
        for b in value.bytes() {
            if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
                encoded.push(b as char);
            } else {
                encoded.push_str(&format!("%{b:02X}"));
            }
        }
        out = out.replace(&format!("{{{name}}}"), &encoded);
    }
    out
}
