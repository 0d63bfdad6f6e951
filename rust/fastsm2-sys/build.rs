// SPDX-License-Identifier: Apache-2.0
//! Builds libfastsm2 from its C sources with the `cc` crate. What to
//! compile is the repository's one description of the library's build,
//! `tools/libsources.py` (CMake and the Python package read it too): run
//! with python3, it writes the generated files (the base-point tables, the
//! EC backend units) into OUT_DIR and lists the sources and include
//! directories.
//!
//! The sources are the repository's (`../../src`, `../../include`,
//! `../../tools`) when the crate sits in its repository, else `csrc/` next
//! to this file (a packaged crate: `rust/tools/vendor.sh` copies them there
//! before packaging, with `libsources.py --vendor`).
//! With the `pkg-config` feature, or FASTSM2_SYS_PKG_CONFIG=1, an installed
//! libfastsm2 is linked instead (`pkg-config fastsm2`).
use std::env;
use std::path::PathBuf;
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

    // What to compile, and the generated files written, by the build's
    // description.
    let script = root.join("tools").join("libsources.py");
    assert!(script.is_file(), "fastsm2-sys: {} missing", script.display());
    let out = PathBuf::from(env::var("OUT_DIR").unwrap());
    let generated = out.join("generated");
    let python = env::var("PYTHON3").unwrap_or_else(|_| "python3".into());
    let o = Command::new(&python)
        .arg(&script)
        .arg("--root")
        .arg(&root)
        .arg("--out")
        .arg(&generated)
        .args(["--format", "tagged"])
        .output()
        .unwrap_or_else(|e| panic!("fastsm2-sys: running {python} {}: {e}", script.display()));
    assert!(o.status.success(), "fastsm2-sys: libsources.py failed: {}", String::from_utf8_lossy(&o.stderr));
    let listing = String::from_utf8(o.stdout).expect("fastsm2-sys: libsources.py printed non-UTF-8");
    let (mut sources, mut includes) = (Vec::new(), Vec::new());
    for line in listing.lines() {
        match line.split_once(' ') {
            Some(("source", p)) => sources.push(PathBuf::from(p)),
            Some(("include", p)) => includes.push(PathBuf::from(p)),
            Some(("input", p)) => println!("cargo:rerun-if-changed={p}"),
            _ => panic!("fastsm2-sys: libsources.py: unexpected line {line:?}"),
        }
    }
    assert!(!sources.is_empty(), "fastsm2-sys: libsources.py listed no sources");

    let mut b = cc::Build::new();
    b.files(&sources)
        .includes(&includes)
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

