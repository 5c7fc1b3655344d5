// Contracts deployed by scripts/neogo-diffchain.sh on a neo-go privnet. A
// module of their own: n3d's build never sees them; `neogo contract compile`
// builds them against neo-go's interop package.
module github.com/n3d-io/n3d/scripts/diffchain

go 1.25

require github.com/nspcc-dev/neo-go/pkg/interop v0.0.0-20260609115526-14bc7067ea2e
