# syntax=docker/dockerfile:1
# Build a static n3d binary, then run it as an unprivileged user.
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 make build

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /src/bin/n3d /usr/bin/n3d
COPY --from=build /src/config /config
USER nonroot:nonroot
WORKDIR /data
EXPOSE 20332 20333 30332 30333 10332 10333 20331 2112
ENTRYPOINT ["/usr/bin/n3d"]
CMD ["node", "--config-path", "/config"]
