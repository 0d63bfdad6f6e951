// SPDX-License-Identifier: Apache-2.0
//! The hand-written declarations of src/lib.rs checked against
//! include/fastsm2.h by the C compiler: each `pub fn` becomes a C function
//! pointer of the type the Rust declaration implies, initialised with the
//! header's function (an incompatible type is an error under -Werror), each
//! `pub const` a _Static_assert on the header's macro, and each opaque type
//! a _Static_assert on its size.
use std::path::PathBuf;
use std::process::Command;

fn c_type(rust: &str) -> String {
    let t = rust.trim();
    let (prefix, inner) = if let Some(r) = t.strip_prefix("*const ") {
        ("const ", r)
    } else if let Some(r) = t.strip_prefix("*mut ") {
        ("", r)
    } else {
        return match t {
            "c_int" => "int".into(),
            "usize" => "size_t".into(),
            "u32" => "uint32_t".into(),
            "u64" => "uint64_t".into(),
            "()" => "void".into(),
            other => panic!("no C type for {other}"),
        };
    };
    let base = match inner.trim() {
        "u8" => "unsigned char",
        "c_void" => "void",
        "c_char" => "char",
        "usize" => "size_t",
        "c_int" => "int",
        other if other.starts_with("fastsm2_") => other,
        other => panic!("no C type for pointer to {other}"),
    };
    format!("{prefix}{base} *")
}

#[test]
fn declarations_match_the_header() {
    let include = PathBuf::from(env!("FASTSM2_SYS_INCLUDE"));
    let lib = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/src/lib.rs")).unwrap();
    // Join the extern block's declarations into one line each.
    let flat = lib.split('\n').map(str::trim).collect::<Vec<_>>().join(" ");
    let mut c = String::from("#include <stddef.h>\n#include <stdint.h>\n#include \"fastsm2.h\"\n");
    let mut nfn = 0;
    for decl in flat.split("pub fn ").skip(1) {
        let decl = &decl[..decl.find(';').unwrap()];
        let name = decl[..decl.find('(').unwrap()].trim();
        let open = decl.find('(').unwrap();
        let close = decl.rfind(')').unwrap();
        let args = &decl[open + 1..close];
        let ret = decl[close + 1..].trim().strip_prefix("->").map_or("()", str::trim);
        let params: Vec<String> = args
            .split(',')
            .map(str::trim)
            .filter(|a| !a.is_empty())
            .map(|a| c_type(a.split_once(':').unwrap().1))
            .collect();
        let params = if params.is_empty() { "void".to_string() } else { params.join(", ") };
        c += &format!("{} (*const check_{name})({params}) = {name};\n", c_type(ret));
        nfn += 1;
    }
    let mut nconst = 0;
    for line in lib.lines() {
        let l = line.trim();
        if let Some(rest) = l.strip_prefix("pub const ") {
            let name = rest.split(':').next().unwrap().trim();
            let value = rest.split('=').nth(1).unwrap().trim().trim_end_matches(';');
            if value.starts_with("b\"") {
                let s = value.trim_start_matches('b').trim_matches('"');
                c += &format!("_Static_assert(sizeof({name}) == {} + 1, \"{name}\");\n", s.len());
            } else {
                c += &format!("_Static_assert({name} == {value}, \"{name}\");\n");
            }
            nconst += 1;
        }
    }
    for (ty, words) in [
        ("fastsm2_sm3_ctx", 14),
        ("fastsm2_hmac_sm3_ctx", 32),
        ("fastsm2_privkey", 48),
        ("fastsm2_pubkey", 288),
        ("fastsm2_kx_ctx", 96),
        ("fastsm2_sm4_key", 72),
        ("fastsm2_sm4_ctx", 40),
        ("fastsm2_sm4_gcm_ctx", 96),
    ] {
        c += &format!("_Static_assert(sizeof({ty}) == {words} * 8, \"{ty}\");\n");
    }
    assert!(nfn >= 40 && nconst >= 30, "parsed {nfn} functions and {nconst} constants");
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let file = dir.join("fastsm2_sys_prototypes.c");
    std::fs::write(&file, &c).unwrap();
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let out = Command::new(&cc)
        .args(["-std=c11", "-Wall", "-Werror", "-Wincompatible-pointer-types", "-c", "-o"])
        .arg(dir.join("fastsm2_sys_prototypes.o"))
        .arg("-I")
        .arg(&include)
        .arg(&file)
        .output()
        .unwrap_or_else(|e| panic!("{cc}: {e}"));
    assert!(
        out.status.success(),
        "the declarations differ from fastsm2.h:\n{}\n(generated {})",
        String::from_utf8_lossy(&out.stderr),
        file.display()
    );
}

#[test]
fn links_and_runs() {
    unsafe {
        let v = std::ffi::CStr::from_ptr(fastsm2_sys::fastsm2_version());
        assert!(!v.to_bytes().is_empty());
        let mut out = [0u8; 32];
        fastsm2_sys::fastsm2_sm3(out.as_mut_ptr(), b"abc".as_ptr().cast(), 3);
        assert_eq!(out[..4], [0x66, 0xc7, 0xf0, 0xf4]);
    }
}
