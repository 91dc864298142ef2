//! The layers point one way (http → service → store/games): nothing under `src/service/`,
//! `src/store/` or `src/games/` names the HTTP layer or the app that wires it, and the rules name
//! neither the service nor the store. Checked on the source text, so a new import fails here.

use std::path::Path;

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("source folder") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn assert_no_mention(folder: &str, forbidden: &[&str]) {
    let mut files = Vec::new();
    rust_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join(folder),
        &mut files,
    );
    assert!(!files.is_empty(), "no Rust files under {folder}");
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        for word in forbidden {
            assert!(
                !text.contains(word),
                "{} mentions {word}: layers point http → service → store/games",
                file.display()
            );
        }
    }
}

#[test]
fn the_service_and_the_store_know_nothing_of_http() {
    for folder in ["src/service", "src/store"] {
        assert_no_mention(folder, &["crate::http", "crate::app", "actix_web"]);
    }
}

#[test]
fn the_rules_know_nothing_of_the_layers_above() {
    assert_no_mention(
        "src/games",
        &[
            "crate::http",
            "crate::app",
            "crate::service",
            "crate::store",
            "sqlx",
            "actix_web",
        ],
    );
}
