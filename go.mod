module github.com/n3d-io/n3d

go 1.26.8

require (
	filippo.io/edwards25519 v1.1.0
	filippo.io/nistec v0.0.4
	github.com/consensys/gnark-crypto v0.22.0
	github.com/decred/dcrd/dcrec/secp256k1/v4 v4.4.1
	github.com/gorilla/websocket v1.5.3
	github.com/holiman/bloomfilter/v2 v2.0.3
	github.com/mr-tron/base58 v1.3.0
	github.com/nspcc-dev/dbft v0.4.0
	github.com/pierrec/lz4/v4 v4.1.33
	github.com/prometheus/client_golang v1.25.0
	github.com/prometheus/client_model v0.6.3
	github.com/rivo/uniseg v0.4.7
	github.com/stretchr/testify v1.12.1
	github.com/syndtr/goleveldb v1.0.1-0.20210305035536-64b5b1c73954
	github.com/twmb/murmur3 v1.2.2
	github.com/urfave/cli/v3 v3.14.0
	go.etcd.io/bbolt v1.5.0
	go.uber.org/zap v1.28.0
	golang.org/x/crypto v0.58.0
	golang.org/x/sys v0.49.0
	golang.org/x/term v0.47.0
	gopkg.in/yaml.v3 v3.0.1
)

require (
	github.com/beorn7/perks v1.0.1 // indirect
	github.com/bits-and-blooms/bitset v1.25.0 // indirect
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	github.com/golang/snappy v0.0.1 // indirect
	github.com/munnerz/goautoneg v0.0.0-20191010083416-a7dc8b61c822 // indirect
	github.com/prometheus/common v0.72.0 // indirect
	github.com/prometheus/procfs v0.22.0 // indirect
	github.com/rogpeppe/go-internal v1.16.0 // indirect
	go.uber.org/multierr v1.10.0 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
	google.golang.org/protobuf v1.36.12 // indirect
)
