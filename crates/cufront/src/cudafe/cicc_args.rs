//! The front-end part of cicc's command line, as cudafe++ arguments.
//!
//! nvcc gives cicc the EDG options it gives cudafe++ (standard, host
//! compiler version, `--display_error_number`, `--orig_src_file_name`,
//! `--diag_*`, `-w`, `--promote_warnings`, `--extended-lambda`, …) mixed
//! with the code generator's own (`-arch compute_90`, `-ftz=0`,
//! `-o F.ptx`). The device pass of `cufront check` models cicc's front end
//! only, so it keeps the long options cudafe++ knows (with their values;
//! file names among them are not used without code generation) and `-w`,
//! drops the rest, and runs without code generation on cicc's input, the
//! `.ii` file.

use super::flags::{FLAGS, Lookup, lookup_long};

/// cudafe++ arguments for the front end of the cicc command `args`
/// (without the program name).
pub fn front_end_args(args: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut input = None;
    let mut i = 0;
    while i < args.len() {
        let arg = &args[i];
        i += 1;
        if let Some(body) = arg.strip_prefix("--") {
            let (name, inline_value) = match body.split_once('=') {
                Some((n, v)) => (n, Some(v)),
                None => (body, None),
            };
            if let Lookup::Found(id) = lookup_long(name) {
                out.push(arg.clone());
                if FLAGS[id].takes_value
                    && inline_value.is_none()
                    && let Some(v) = args.get(i)
                {
                    out.push(v.clone());
                    i += 1;
                }
            }
        } else if arg == "-w" {
            out.push(arg.clone());
        } else if arg.ends_with(".ii") {
            input = Some(arg.clone());
        }
    }
    out.push("--no_code_gen".into());
    out.extend(input);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_front_end_options_and_the_input() {
        let cicc = "--c++17 --static-host-stub --gnu_version=120200 -w --diag_suppress 940 --display_error_number \
                    --orig_src_file_name a.cu --allow_managed --diag_warn=68 -arch compute_75 -m64 \
                    --no-version-ident -ftz=0 --include_file_name x.fatbin.c -tused --module_id_file_name a.module_id \
                    --gen_device_file_name a.gpu /k/a.cpp1.ii -o /k/a.ptx";
        let args: Vec<String> = cicc.split_whitespace().map(str::to_string).collect();
        assert_eq!(
            front_end_args(&args).join(" "),
            "--c++17 --static-host-stub --gnu_version=120200 -w --diag_suppress 940 --display_error_number \
             --orig_src_file_name a.cu --allow_managed --diag_warn=68 --include_file_name x.fatbin.c \
             --module_id_file_name a.module_id --gen_device_file_name a.gpu --no_code_gen /k/a.cpp1.ii"
        );
    }
}
