package result

// BlockNotifications is the getblocknotifications answer (a neo-go
// extension): the notifications of a block's successful executions, by
// trigger, each with its container (the block hash for OnPersist and
// PostPersist, the transaction hash for Application); an empty list is
// omitted.
type BlockNotifications struct {
	OnPersist   []NotificationEvent `json:"onpersist,omitzero"`
	Application []NotificationEvent `json:"application,omitzero"`
	PostPersist []NotificationEvent `json:"postpersist,omitzero"`
}
