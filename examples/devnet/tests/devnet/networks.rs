//! Every network the node names, through each part that writes a network's names: the
//! devnet (`info.getNetworkName`, the addresses it answers and takes), the codec's JSON and
//! the wallet's context; all read `avalanche_rpc::network`.

use avalanche_devnet::Options;
use avalanche_devnet::genesis::test_keys;
use avalanche_rpc::avm::{AvmClient, GetUtxosParams};
use avalanche_rpc::codec::{JsonContext, ToJson, secp256k1fx};
use avalanche_rpc::info::{GetNetworkNameParams, InfoClient};
use avalanche_rpc::network::{self, NETWORKS};
use avalanche_rpc::wire::{Address, ShortId};

use crate::common::{self, Devnet};

#[tokio::test]
async fn every_network_the_node_names_has_its_name_and_hrp_everywhere() {
    let a = ShortId::new([7; 20]);
    let owners = secp256k1fx::OutputOwners::new(0, 1, vec![a]);
    // The node's names (`utils/constants/network_ids.go`), and one it does not name.
    let expected = [
        (1, "mainnet", "avax"),
        (2, "cascade", "cascade"),
        (3, "denali", "denali"),
        (4, "everest", "everest"),
        (5, "fuji", "fuji"),
        (10, "testing", "testing"),
        (12345, "local", "local"),
        (1337, "network-1337", "custom"),
    ];
    assert_eq!(
        NETWORKS.len() + 1,
        expected.len(),
        "every named network is checked"
    );
    for (id, name, hrp) in expected {
        // The codec writes addresses in the network's HRP.
        let json = owners.to_json(&JsonContext::for_network("X", id));
        assert_eq!(
            json["addresses"][0],
            format!("X-{}", Address::new(None, hrp, [7; 20]).unwrap()).as_str(),
            "codec, network {id}"
        );
        // The devnet, on that network, says its name and takes and gives its addresses; the
        // wallet's context read from it has the HRP and reads its addresses back.
        let d = Devnet::start(Options {
            network_id: id,
            ..common::options()
        })
        .await;
        let r = d
            .node
            .info()
            .get_network_name(GetNetworkNameParams::new())
            .await
            .unwrap();
        assert_eq!(r.network_name, name, "devnet, network {id}");
        let cx = d.context();
        assert_eq!(
            (cx.hrp.as_str(), avalanche_rpc::network::hrp(id)),
            (hrp, hrp),
            "wallet, network {id}"
        );
        let ewoq = test_keys()[0].address();
        let mine = Address::new(Some("X"), hrp, *ewoq.as_bytes()).unwrap();
        assert_eq!(
            cx.parse_address("to", "X", &mine.to_string()).unwrap(),
            ewoq
        );
        let other = if hrp == "avax" { "fuji" } else { "avax" };
        let theirs = Address::new(Some("X"), other, *ewoq.as_bytes()).unwrap();
        assert!(
            cx.parse_address("to", "X", &theirs.to_string()).is_err(),
            "network {id}"
        );
        let x = d.node.avm("X");
        let page = x
            .get_utxos(GetUtxosParams::new(vec![mine.clone()]))
            .await
            .unwrap();
        assert!(page.num_fetched.get() > 0, "network {id}: ewoq is funded");
        assert_eq!(page.end_index.address, mine.to_string(), "network {id}");
        let e = x
            .get_utxos(GetUtxosParams::new(vec![theirs]))
            .await
            .unwrap_err();
        assert!(
            e.to_string()
                .contains(&format!("expected hrp \"{hrp}\" but got \"{other}\"")),
            "{e}"
        );
        d.stop().await;
        assert_eq!(network::hrp(id), hrp);
        assert_eq!(network::name(id), name);
    }
}
