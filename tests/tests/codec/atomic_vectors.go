// The program that printed the vectors of atomic.rs, with the node's own code (coreth
// v1.14.2 plugin/evm/atomic): in a directory with this file as main.go and a go.mod that
// requires github.com/ava-labs/avalanchego/graft/coreth v1.14.2, `go run .` prints the
// signed and unsigned bytes, the ID and the Go JSON of one import and one export.

package main

import (
	"encoding/json"
	"fmt"

	"github.com/ava-labs/avalanchego/graft/coreth/plugin/evm/atomic"
	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/crypto/secp256k1"
	"github.com/ava-labs/avalanchego/vms/components/avax"
	"github.com/ava-labs/avalanchego/vms/secp256k1fx"
	"github.com/ava-labs/libevm/common"
)

func must(err error) {
	if err != nil {
		panic(err)
	}
}

func main() {
	chainID := ids.ID{0xc1, 0x02}
	xChain := ids.ID{0x0a, 0x03}
	avaxID := ids.ID{0xa5, 0x01, 0x02}
	key, err := secp256k1.ToPrivateKey(make32())
	must(err)
	addr := common.HexToAddress("0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC")
	imp := &atomic.UnsignedImportTx{
		NetworkID:    12345,
		BlockchainID: chainID,
		SourceChain:  xChain,
		ImportedInputs: []*avax.TransferableInput{{
			UTXOID: avax.UTXOID{TxID: ids.ID{0x77}, OutputIndex: 1},
			Asset:  avax.Asset{ID: avaxID},
			In: &secp256k1fx.TransferInput{
				Amt:   5_000_000,
				Input: secp256k1fx.Input{SigIndices: []uint32{0}},
			},
		}},
		Outs: []atomic.EVMOutput{{Address: addr, Amount: 4_000_000, AssetID: avaxID}},
	}
	tx := &atomic.Tx{UnsignedAtomicTx: imp}
	must(tx.Sign(atomic.Codec, [][]*secp256k1.PrivateKey{{key}}))
	j, err := json.Marshal(tx)
	must(err)
	fmt.Printf("IMPORT_SIGNED=0x%x\nIMPORT_UNSIGNED=0x%x\nIMPORT_ID=%s\nIMPORT_JSON=%s\n", tx.SignedBytes(), tx.Bytes(), tx.ID(), j)

	exp := &atomic.UnsignedExportTx{
		NetworkID:        12345,
		BlockchainID:     chainID,
		DestinationChain: xChain,
		Ins: []atomic.EVMInput{{Address: addr, Amount: 3_000_000, AssetID: avaxID, Nonce: 7}},
		ExportedOutputs: []*avax.TransferableOutput{{
			Asset: avax.Asset{ID: avaxID},
			Out: &secp256k1fx.TransferOutput{
				Amt: 2_000_000,
				OutputOwners: secp256k1fx.OutputOwners{
					Locktime:  0,
					Threshold: 1,
					Addrs:     []ids.ShortID{key.PublicKey().Address()},
				},
			},
		}},
	}
	tx2 := &atomic.Tx{UnsignedAtomicTx: exp}
	must(tx2.Sign(atomic.Codec, [][]*secp256k1.PrivateKey{{key}}))
	j2, err := json.Marshal(tx2)
	must(err)
	fmt.Printf("EXPORT_SIGNED=0x%x\nEXPORT_UNSIGNED=0x%x\nEXPORT_ID=%s\nEXPORT_JSON=%s\n", tx2.SignedBytes(), tx2.Bytes(), tx2.ID(), j2)
}

func make32() []byte {
	b := make([]byte, 32)
	for i := range b {
		b[i] = byte(i + 1)
	}
	return b
}
