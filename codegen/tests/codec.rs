//! The codec part of the spec (`spec/codec/`): the repository's layouts load into the model
//! with the numbering of the node, and every kind of mistake in them is reported once, with
//! its file, line and column and, for a misspelt name, the closest known one.
//!
//! Each error test starts from the repository's spec, changes one thing in one codec file,
//! and checks the errors exactly.

use avalanche_rpc_codegen::codec::model::{Codec, Layout, TypeRef};
use avalanche_rpc_codegen::{Sources, Spec, load};
use std::path::Path;

fn sources() -> Sources {
    Sources::read_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec")).unwrap()
}

fn spec() -> Spec {
    load(&sources()).unwrap()
}

fn t(package: &str, name: &str) -> TypeRef {
    TypeRef {
        package: package.into(),
        name: name.into(),
    }
}

fn codec<'a>(spec: &'a Spec, name: &str) -> &'a Codec {
    spec.codec.codecs.iter().find(|c| c.name == name).unwrap()
}

#[test]
fn the_repository_layouts_load_with_the_node_numbering() {
    let spec = spec();
    let c = &spec.codec;
    let packages: Vec<&str> = c.packages.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(
        packages,
        [
            "atomic",
            "avax",
            "avm",
            "nftfx",
            "platform",
            "propertyfx",
            "proposervm",
            "secp256k1fx",
            "warp"
        ]
    );
    let codecs: Vec<&str> = c.codecs.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(
        codecs,
        [
            "avm",
            "platform",
            "atomic",
            "warp",
            "warp-payload",
            "warp-l1",
            "proposervm"
        ]
    );

    let x = codec(&spec, "avm");
    assert_eq!((x.version, x.max_size), (0, 262_144));
    assert_eq!(x.type_id(&t("avm", "BaseTx")), Some(0));
    assert_eq!(x.type_id(&t("secp256k1fx", "TransferOutput")), Some(7));
    assert_eq!(x.type_id(&t("propertyfx", "Credential")), Some(19));
    assert_eq!(x.type_id(&t("avm", "StandardBlock")), Some(20));
    assert_eq!(x.type_id(&t("platform", "LockOut")), None);

    // coreth's atomic codec: its own two types, then the fx types at the X-chain's IDs.
    let a = codec(&spec, "atomic");
    assert_eq!((a.version, a.max_size), (0, 262_144));
    assert!(a.zero_fx_ids);
    for (package, name, id) in [
        ("atomic", "UnsignedImportTx", 0),
        ("atomic", "UnsignedExportTx", 1),
        ("secp256k1fx", "TransferInput", 5),
        ("secp256k1fx", "TransferOutput", 7),
        ("secp256k1fx", "Credential", 9),
        ("secp256k1fx", "Input", 10),
        ("secp256k1fx", "OutputOwners", 11),
    ] {
        assert_eq!(a.type_id(&t(package, name)), Some(id), "{name}");
    }
    let skipped: Vec<u32> = a
        .type_ids
        .iter()
        .filter(|(_, ty)| ty.is_none())
        .map(|(id, _)| *id)
        .collect();
    assert_eq!(skipped, [2, 3, 4, 6, 8]);
    let out = c.get(&t("atomic", "EvmOutput")).unwrap();
    assert_eq!(out.fields[0].layout, Layout::EvmAddress);

    let p = codec(&spec, "platform");
    // The two skipped IDs keep the UTXO type IDs equal across chains.
    assert!(p.type_ids.iter().any(|(id, ty)| *id == 6 && ty.is_none()));
    assert!(p.type_ids.iter().any(|(id, ty)| *id == 8 && ty.is_none()));
    for (name, id) in [
        ("ApricotProposalBlock", 0),
        ("Input", 10),
        ("OutputOwners", 11),
        ("AddPermissionlessValidatorTx", 25),
        ("ProofOfPossession", 28),
        ("BanffStandardBlock", 32),
        ("BaseTx", 34),
        ("ConvertSubnetToL1Tx", 35),
        ("DisableL1ValidatorTx", 39),
        ("RewardAutoRenewedValidatorTx", 42),
    ] {
        assert_eq!(p.type_id(&t("platform", name)), Some(id), "{name}");
    }
    assert_eq!(p.slot("UnsignedTx").unwrap().types.len(), 23);
    assert_eq!(
        p.slot("TransferableOut").unwrap().types,
        [t("secp256k1fx", "TransferOutput"), t("platform", "LockOut")]
    );
    assert_eq!(
        x.slot("TransferableOut").unwrap().types,
        [t("secp256k1fx", "TransferOutput")]
    );

    // A struct that holds a slot takes one form per codec; one that does not, one form.
    for codec in [x, p] {
        for bound in ["TransferableOutput", "TransferableInput", "Utxo", "Base"] {
            assert!(codec.codec_bound.contains(&t("avax", bound)), "{bound}");
        }
        assert!(codec.reached.contains(&t("secp256k1fx", "OutputOwners")));
        assert!(
            !codec
                .codec_bound
                .contains(&t("secp256k1fx", "OutputOwners"))
        );
        assert!(!codec.codec_bound.contains(&t("avax", "UtxoId")));
    }
    // The genesis codecs allow more.
    let genesis = p
        .roots
        .iter()
        .find(|r| r.layout == Layout::Struct(t("platform", "Genesis")))
        .unwrap();
    assert_eq!(genesis.max_size, 2_147_483_647);

    // The layout of the X-chain's first example (codec §1.3), field by field.
    let base = c.get(&t("avax", "Base")).unwrap();
    let layout: Vec<String> = base.fields.iter().map(|f| f.layout.spec_text()).collect();
    assert_eq!(
        layout,
        [
            "u32",
            "id",
            "list<avax.TransferableOutput>",
            "list<avax.TransferableInput>",
            "bytes"
        ]
    );
    let signatures = &c.get(&t("secp256k1fx", "Credential")).unwrap().fields[0];
    assert_eq!(signatures.layout.spec_text(), "list<bytes<65>>");
    let op = &c.get(&t("avm", "Operation")).unwrap().fields;
    assert_eq!(
        (op[1].name.as_str(), op[1].json.as_str()),
        ("utxoIDs", "inputIDs")
    );
}

/// The errors after replacing `from` with `to` in `file` (which must contain `from`).
fn errors_after(file: &str, from: &str, to: &str) -> Vec<String> {
    let mut s = sources();
    let entry = s
        .codec
        .iter_mut()
        .find(|(name, _)| name == file)
        .unwrap_or_else(|| panic!("no {file}"));
    assert!(entry.1.contains(from), "{file} lacks {from:?}");
    entry.1 = entry.1.replacen(from, to, 1);
    match load(&s) {
        Ok(_) => Vec::new(),
        Err(e) => e.0.iter().map(|e| e.to_string()).collect(),
    }
}

fn one_error(file: &str, from: &str, to: &str) -> String {
    let errors = errors_after(file, from, to);
    assert_eq!(errors.len(), 1, "{errors:#?}");
    errors.into_iter().next().unwrap()
}

#[test]
fn a_misspelt_type_is_reported_once_with_the_closest_name() {
    let e = one_error(
        "codec/nftfx.yaml",
        "type: secp256k1fx.OutputOwners, inline: true, summary: \"Who may mint.\"",
        "type: secp256k1fx.OutputOwner, inline: true, summary: \"Who may mint.\"",
    );
    assert!(e.starts_with("codec/nftfx.yaml:13:31:"), "{e}");
    assert!(e.contains("type `nftfx.MintOutput`, field `owners`"), "{e}");
    assert!(
        e.contains(
            "unknown type `secp256k1fx.OutputOwner`; did you mean `secp256k1fx.OutputOwners`?"
        ),
        "{e}"
    );
    // In the same package the suggestion is spelt as the place would write it.
    let e = one_error(
        "codec/avm.yaml",
        "type: list<InitialState>",
        "type: list<InitialStat>",
    );
    assert!(
        e.contains("unknown type `InitialStat`; did you mean `InitialState`?"),
        "{e}"
    );
}

#[test]
fn an_unknown_key_names_the_known_ones() {
    let e = one_error("codec/avax.yaml", "max-len: 256", "maxlen: 256");
    assert!(e.starts_with("codec/avax.yaml:"), "{e}");
    assert!(e.contains("type `avax.Base`, field `memo`"), "{e}");
    assert!(
        e.contains("unknown key `maxlen`; did you mean `max-len`?"),
        "{e}"
    );
}

#[test]
fn a_file_that_does_not_parse_is_one_problem_not_a_cascade() {
    // Every other file uses secp256k1fx's types; none of those uses is reported.
    let errors = errors_after(
        "codec/secp256k1fx.yaml",
        "  - name: OutputOwners",
        "  - name: OutputOwners\n   bad: indent",
    );
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert!(
        errors[0].starts_with("codec/secp256k1fx.yaml:"),
        "{}",
        errors[0]
    );
}

#[test]
fn rules_must_fit_their_layout() {
    let e = one_error("codec/avax.yaml", "max-len: 256", "min: 1");
    assert!(e.contains("`min` applies to integers only"), "{e}");
    let e = one_error(
        "codec/avax.yaml",
        "type: list<TransferableOutput>, order: sorted",
        "type: TransferableOutput, order: sorted",
    );
    assert!(e.contains("`order` applies to lists only"), "{e}");
    let e = one_error("codec/avax.yaml", "order: sorted", "order: ascending");
    assert!(e.contains("`ascending` is not an order"), "{e}");
    let e = one_error(
        "codec/avax.yaml",
        "order: strictly-increasing-by utxoID",
        "order: strictly-increasing-by txid",
    );
    assert!(
        e.contains("the elements (avax.TransferableInput) have no field `txid`"),
        "{e}"
    );
    // Several fields, compared in turn: the one missing is named.
    let e = one_error(
        "codec/atomic.yaml",
        "list<EvmOutput>, order: strictly-increasing-by address assetID",
        "list<EvmOutput>, order: strictly-increasing-by address asset",
    );
    assert!(
        e.contains("`strictly-increasing-by address asset`: the elements (atomic.EvmOutput) have no field `asset`"),
        "{e}"
    );
    let e = one_error(
        "codec/codecs.yaml",
        "json-fx-ids: zero",
        "json-fx-ids: none",
    );
    assert!(
        e.contains("`none` is not a form of the fx IDs: the only one is `zero`"),
        "{e}"
    );
    let e = one_error("codec/platform.yaml", "type: bytes<48>", "type: bytes<0>");
    assert!(
        e.contains("the length of `bytes<N>` is a positive number"),
        "{e}"
    );
    let e = one_error(
        "codec/avm.yaml",
        "type: string, max-len: 128",
        "type: string, max-len: 70000",
    );
    assert!(e.contains("cannot exceed 65535"), "{e}");
    let e = one_error(
        "codec/avm.yaml",
        "type: id, summary: \"The chain the UTXOs come from.\"",
        "type: id, inline: true, summary: \"The chain the UTXOs come from.\"",
    );
    assert!(e.contains("only a struct can be inline"), "{e}");
}

#[test]
fn a_struct_that_contains_itself_is_refused() {
    let e = one_error(
        "codec/avax.yaml",
        "      - { name: outputIndex, type: u32, summary: \"The output's index in that transaction.\" }\n",
        "      - { name: outputIndex, type: u32, summary: \"The output's index in that transaction.\" }\n      - { name: again, type: UtxoId, summary: \"Itself.\" }\n",
    );
    assert!(e.contains("type `avax.UtxoId`"), "{e}");
    assert!(
        e.contains("the type contains itself: avax.UtxoId → avax.UtxoId"),
        "{e}"
    );
}

#[test]
fn the_numbering_and_the_slots_are_checked() {
    let e = one_error(
        "codec/codecs.yaml",
        "      4: avm.ExportTx\n",
        "      4: avm.ExportTx\n      21: avm.BaseTx\n",
    );
    assert!(e.starts_with("codec/codecs.yaml:"), "{e}");
    assert!(e.contains("codec `avm`"), "{e}");
    assert!(
        e.contains("`avm.BaseTx` already has type ID 0 in codec `avm`"),
        "{e}"
    );

    let e = one_error("codec/codecs.yaml", "      20: avm.StandardBlock\n", "");
    assert!(
        e.contains(
            "`avm.StandardBlock` has no type ID in codec `avm`: a slot holds numbered types only"
        ),
        "{e}"
    );

    let e = one_error(
        "codec/codecs.yaml",
        "      0: avm.BaseTx",
        "      0: avm.BaseTxx",
    );
    assert!(
        e.contains("unknown type `avm.BaseTxx`; did you mean `avm.BaseTx`?"),
        "{e}"
    );

    // A slot a codec's values reach must be defined there: reported at the field.
    let e = one_error(
        "codec/codecs.yaml",
        "      Signer: [platform.SignerEmpty, platform.ProofOfPossession]\n",
        "",
    );
    assert!(e.starts_with("codec/platform.yaml:"), "{e}");
    assert!(
        e.contains(
            "slot `Signer` is reached from the roots of codec `platform` but not defined there"
        ),
        "{e}"
    );

    let e = one_error(
        "codec/codecs.yaml",
        "      Payload: [warp.Hash, warp.AddressedCall]\n",
        "      Payload: [warp.Hash, warp.AddressedCall]\n      Unused: [warp.Hash]\n",
    );
    assert!(
        e.contains("slot `Unused` is used by no field and no root"),
        "{e}"
    );
}

#[test]
fn slot_enums_take_their_variants_type_names_and_accessors_from_the_names_table() {
    use avalanche_rpc_codegen::emit::names::Names;
    let spec = spec();
    let names = Names::of(&spec);
    let accessors = |name: &str, slot: &str| -> Vec<(String, bool)> {
        names
            .of_codec(codec(&spec, name))
            .of_slot(slot)
            .accessors
            .iter()
            .map(|a| (a.ident.clone(), a.in_every_variant()))
            .collect()
    };

    // Variants are the type's name, or package and name where two types share a name; the
    // type name is the spec's, without the package.
    let outputs = &names.of_codec(codec(&spec, "avm")).of_slot("UtxoOutput");
    let variants: Vec<(&str, &str)> = outputs
        .variants
        .iter()
        .map(|v| (v.ident.as_str(), v.type_name.as_str()))
        .collect();
    assert_eq!(
        variants,
        [
            ("Secp256k1fxMintOutput", "MintOutput"),
            ("Secp256k1fxTransferOutput", "TransferOutput"),
            ("NftfxMintOutput", "MintOutput"),
            ("NftfxTransferOutput", "TransferOutput"),
            ("PropertyfxMintOutput", "MintOutput"),
            ("OwnedOutput", "OwnedOutput"),
        ]
    );

    // Every X-chain tx inlines `base`: `&Base`. Three P-chain kinds have none: `Option`.
    assert_eq!(accessors("avm", "UnsignedTx"), [("base".to_string(), true)]);
    let p = accessors("platform", "UnsignedTx");
    assert_eq!(p[0], ("base".to_string(), false));
    assert!(p.contains(&("subnet_id".to_string(), false)));
    // `validator` is a `Validator` in some kinds and a `SubnetValidator` in another: none.
    assert!(!p.iter().any(|(a, _)| a == "validator"), "{p:?}");
    // Blocks: every one has a parent and a height; some a time.
    let blocks = accessors("platform", "Block");
    assert!(blocks.starts_with(&[("parent_id".into(), true), ("height".into(), true)]));
    assert!(blocks.contains(&("time".to_string(), false)));
    // A slot of one type has no accessors (there is nothing to share).
    assert!(accessors("platform", "Owner").is_empty());
}
