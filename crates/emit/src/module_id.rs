//! The module id (spec 30 §4, spec 50 §8.3): `_<P>_<L>_<B>_<K>`, every byte
//! outside `[A-Za-z0-9]` then replaced by `_`.

/// CRC-32 (zlib's: reflected 0xEDB88320, init and final xor 0xFFFFFFFF) of the bytes.
pub fn crc32(parts: &[&[u8]]) -> u32 {
    let mut h = crc32fast::Hasher::new();
    for p in parts {
        h.update(p);
    }
    h.finalize()
}

/// What the id is computed from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IdInputs<'a> {
    /// `--orig_src_path_name`, if given.
    pub path_name: Option<&'a str>,
    /// `--orig_src_file_name`, else the input path.
    pub file_name: &'a str,
    /// The key: the linkage name of the first eligible entity (`key::module_key`),
    /// or, without one, the fallback text (see [`fallback`]).
    pub key: &'a str,
    /// Fallback only: the current directory, folded into the key's CRC.
    pub extra: Option<&'a str>,
    /// Fallback only: the process id, appended.
    pub pid: Option<u32>,
}

/// The module id, exactly as cudafe++ computes it.
pub fn module_id(i: &IdInputs<'_>) -> String {
    let p = match i.path_name {
        Some(p) => format!("{:08x}", crc32(&[p.as_bytes()])),
        None => "00000000".to_string(),
    };
    let base = i.file_name.rsplit('/').next().unwrap_or(i.file_name);
    let extra_len = i.extra.map_or(0, |x| x.len() + 1);
    let (key, extra) = if i.key.len() + extra_len > 8 {
        let mut parts: Vec<&[u8]> = vec![i.key.as_bytes()];
        if let Some(x) = i.extra {
            parts.push(x.as_bytes());
        }
        (format!("{:08x}", crc32(&parts)), None)
    } else {
        (i.key.to_string(), i.extra)
    };
    let mut out = format!("_{p}_{}_{base}_{key}", base.len());
    if let Some(x) = extra {
        out.push('_');
        out.push_str(x);
    }
    if let Some(pid) = i.pid {
        out.push_str(&format!("_{pid}"));
    }
    out.bytes().map(|b| if b.is_ascii_alphanumeric() { b as char } else { '_' }).collect()
}

/// The fallback key when no entity qualifies: `ctime()` of the source
/// file's modification time (the caller reads it), with its trailing
/// newline. cudafe++ formats local time; this formats UTC, so ids agree
/// where the build runs with `TZ` unset or UTC.
pub fn ctime(unix_secs: u64) -> String {
    const DAYS: [&str; 7] = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"];
    const MONTHS: [&str; 12] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
    let days = unix_secs / 86400;
    let rem = unix_secs % 86400;
    let (h, m, s) = (rem / 3600, rem % 3600 / 60, rem % 60);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let mon = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(mon <= 2);
    format!("{} {} {:2} {:02}:{:02}:{:02} {}\n", DAYS[(days % 7) as usize], MONTHS[(mon - 1) as usize], d, h, m, s, y)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(path: Option<&str>, file: &str, key: &str) -> String {
        module_id(&IdInputs { path_name: path, file_name: file, key, extra: None, pid: None })
    }

    /// The table of spec 30 §4.1 (observed from the real cudafe++).
    #[test]
    fn observed_ids() {
        assert_eq!(id(Some("/src/k1.cu"), "k1.cu", "_Z4kernPif"), "_cc3ab7e8_5_k1_cu_b85fac86");
        assert_eq!(id(Some("/src/plain.cu"), "plain.cu", "_Z7k_plaincPid1Ssf"), "_3921baba_8_plain_cu_9b360491");
        assert_eq!(id(Some("/src/vars.cu"), "vars.cu", "c_dbl"), "_2b507d24_7_vars_cu_c_dbl");
        assert_eq!(id(Some("/src/lam.cu"), "lam.cu", "_Z3runPi"), "_941d9927_6_lam_cu__Z3runPi");
        assert_eq!(
            id(Some("/src/sub dir/x-y/my-file.v2.cu"), "sub dir/x-y/my-file.v2.cu", "_Z5kern2Pd"),
            "_bc08ee25_13_my_file_v2_cu_df2c5fc0"
        );
        assert_eq!(id(None, "foo.cu", "x"), "_00000000_6_foo_cu_x");
        // spec 50 §8.3
        assert_eq!(id(Some("/src/mid/a.cu"), "a.cu", "_Z1fv"), "_53ba9deb_4_a_cu__Z1fv");
        assert_eq!(id(Some("/src/mid/x y/a-b+c.cu"), "a-b+c.cu", "_Z1gv"), "_d1ab94e5_8_a_b_c_cu__Z1gv");
    }

    #[test]
    fn key_length_boundary() {
        assert!(id(None, "a.cu", "abcdefgh").ends_with("_abcdefgh"));
        assert!(id(None, "a.cu", "abcdefghi").ends_with("_8da988af"));
        assert_eq!(format!("{:08x}", crc32(&[b"_Z1ki1SPf"])), "4f06a750");
        assert_eq!(format!("{:08x}", crc32(&[b"_ZN1S1mEv"])), "1755b2ce");
    }

    #[test]
    fn fallback_folds_directory_and_appends_pid() {
        let key = ctime(0);
        assert_eq!(key, "Thu Jan  1 00:00:00 1970\n");
        assert_eq!(ctime(1_700_000_000), "Tue Nov 14 22:13:20 2023\n");
        let got =
            module_id(&IdInputs { path_name: None, file_name: "c.cu", key: &key, extra: Some("/w"), pid: Some(11621) });
        let crc = crc32(&[key.as_bytes(), b"/w"]);
        assert_eq!(got, format!("_00000000_4_c_cu_{crc:08x}_11621"));
    }
}
