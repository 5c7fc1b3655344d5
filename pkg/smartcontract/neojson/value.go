package neojson

// Member is one key/value pair of an Object.
type Member struct {
	Key   string
	Value any
}

// Object is a JSON object that keeps its members in order.
type Object struct {
	Members []Member
}

// Len returns the number of members.
func (o *Object) Len() int { return len(o.Members) }

// Get returns the value of key and whether the key is present (a present
// key may hold nil, JSON null).
func (o *Object) Get(key string) (any, bool) {
	for i := range o.Members {
		if o.Members[i].Key == key {
			return o.Members[i].Value, true
		}
	}
	return nil, false
}

// Set replaces the value of key or appends the member.
func (o *Object) Set(key string, v any) {
	for i := range o.Members {
		if o.Members[i].Key == key {
			o.Members[i].Value = v
			return
		}
	}
	o.Members = append(o.Members, Member{Key: key, Value: v})
}
