// SPDX-License-Identifier: Apache-2.0
//! Builds libfastsm2 from its C sources with the `cc` crate, as the Python
//! package does (python/_build_ffi.py): every `.c` file under `src/`, found
//! recursively, except the EC backend source, which is compiled once per
//! line of `variants.txt` with that line's macros; and the base-point tables
//! that `gen_tables.py` writes (run with python3 here, into OUT_DIR).
//!
//! The sources are the repository's (`../../src`, `../../include`) when the
//! crate sits in its repository, else `csrc/` next to this file (a packaged
//! crate: `rust/tools/vendor.sh` copies them there before packaging).
//! With the `pkg-config` feature, or FASTSM2_SYS_PKG_CONFIG=1, an installed
//! libfastsm2 is linked instead (`pkg-config fastsm2`).
use std::env;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-env-changed=FASTSM2_SYS_PKG_CONFIG");
    println!("cargo:rerun-if-env-changed=PYTHON3");
    let want_pkg = cfg!(feature = "pkg-config") || env::var("FASTSM2_SYS_PKG_CONFIG").is_ok_and(|v| v == "1");
    if want_pkg {
        link_installed();
        return;
    }
    build_from_source();
}

#[cfg(feature = "pkg-config")]
fn link_installed() {
    let lib = pkg_config::Config::new()
        .atleast_version("0.2")
        .probe("fastsm2")
        .expect("fastsm2-sys: pkg-config found no libfastsm2 (install it, or build without the pkg-config feature)");
    if let Some(inc) = lib.include_paths.first() {
        println!("cargo:include={}", inc.display());
        println!("cargo:rustc-env=FASTSM2_SYS_INCLUDE={}", inc.display());
    }
}

#[cfg(not(feature = "pkg-config"))]
fn link_installed() {
    panic!("fastsm2-sys: FASTSM2_SYS_PKG_CONFIG=1 needs the crate's `pkg-config` feature");
}

/// Files under `dir` (recursively) whose name satisfies `keep`, sorted.
fn walk(dir: &Path, keep: &dyn Fn(&Path) -> bool, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = match fs::read_dir(dir) {
        Ok(rd) => rd.filter_map(|e| e.ok()).map(|e| e.path()).collect(),
        Err(_) => return,
    };
    entries.sort();
    for p in entries {
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if p.is_dir() {
            if name.starts_with('.') || name == "target" || name.starts_with("build") || name == "csrc" || name == "node_modules" {
                continue;
            }
            walk(&p, keep, out);
        } else if keep(&p) {
            out.push(p);
        }
    }
}

fn find_named(root: &Path, name: &str) -> Option<PathBuf> {
    let mut v = Vec::new();
    walk(root, &|p| p.file_name().is_some_and(|n| n == name), &mut v);
    v.into_iter().next()
}

fn build_from_source() {
    let manifest = PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap());
    // In the repository (rust/fastsm2-sys/../../src) the repository's own
    // sources, so that a csrc/ left by an earlier packaging is never built
    // stale; in a packaged crate (no repository around it) csrc/.
    let repo = manifest.join("..").join("..");
    let root = if repo.join("include").join("fastsm2.h").is_file() && repo.join("src").is_dir() {
        repo
    } else {
        manifest.join("csrc")
    };
    let root = root.canonicalize().expect("fastsm2-sys: C sources not found (csrc/ or ../../src)");
    let src = root.join("src");
    let include = root.join("include");
    assert!(include.join("fastsm2.h").is_file(), "fastsm2-sys: {} has no include/fastsm2.h", root.display());
    println!("cargo:rerun-if-changed={}", src.display());
    println!("cargo:rerun-if-changed={}", include.display());

    // The table generator: found by name (it may move between folders).
    let gen = find_named(&root.join("tools"), "gen_tables.py")
        .or_else(|| find_named(&root, "gen_tables.py"))
        .expect("fastsm2-sys: gen_tables.py not found");
    println!("cargo:rerun-if-changed={}", gen.display());
    let out = PathBuf::from(env::var("OUT_DIR").unwrap());
    let generated = out.join("generated");
    fs::create_dir_all(&generated).unwrap();
    let python = env::var("PYTHON3").unwrap_or_else(|_| "python3".into());
    for (args, name) in [(&[][..], "ecmult_tables.c"), (&["--header"][..], "ecmult_tables.h")] {
        let o = Command::new(&python)
            .arg(&gen)
            .args(args)
            .output()
            .unwrap_or_else(|e| panic!("fastsm2-sys: running {python} {}: {e}", gen.display()));
        assert!(o.status.success(), "fastsm2-sys: gen_tables.py failed: {}", String::from_utf8_lossy(&o.stderr));
        write_if_changed(&generated.join(name), &o.stdout);
    }

    // The EC backend: one translation unit per line of variants.txt.
    let variants = find_named(&src, "variants.txt").expect("fastsm2-sys: src/**/variants.txt not found");
    let ec_dir = variants.parent().unwrap().to_path_buf();
    let ec_source = ec_dir.join("ec_backend.c");
    assert!(ec_source.is_file(), "fastsm2-sys: {} missing", ec_source.display());
    let mut units = Vec::new();
    for line in fs::read_to_string(&variants).unwrap().lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut words = line.split_whitespace();
        let name = words.next().unwrap();
        let mut text = String::from("/* Generated by rust/fastsm2-sys/build.rs from variants.txt. */\n");
        for m in words {
            let (k, v) = m.split_once('=').unwrap_or((m, "1"));
            text += &format!("#define {k} {v}\n");
        }
        text += &format!("#include \"{}\"\n", ec_source.display());
        let unit = generated.join(format!("ec_{name}.c"));
        write_if_changed(&unit, text.as_bytes());
        units.push(unit);
    }

    let mut sources = Vec::new();
    walk(&src, &|p| p.extension().is_some_and(|e| e == "c") && p != ec_source.as_path(), &mut sources);
    sources.push(generated.join("ecmult_tables.c"));
    sources.extend(units);

    let mut b = cc::Build::new();
    b.files(&sources)
        .include(&include)
        .include(&src)
        .include(&generated)
        .opt_level(3) // the library is the product: optimised in every profile
        .debug(false)
        .warnings(false);
    if b.is_flag_supported("-std=gnu11").unwrap_or(false) {
        b.flag("-std=gnu11");
    } else {
        b.flag_if_supported("-std=c11").define("_DEFAULT_SOURCE", None);
    }
    b.compile("fastsm2");
    let target_os = env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    if target_os != "windows" {
        println!("cargo:rustc-link-lib=pthread");
    }
    println!("cargo:include={}", include.display());
    println!("cargo:rustc-env=FASTSM2_SYS_INCLUDE={}", include.display());
}

fn write_if_changed(path: &Path, data: &[u8]) {
    if fs::read(path).map_or(true, |old| old != data) {
        fs::write(path, data).unwrap();
    }
}
