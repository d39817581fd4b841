package meeple

import (
	_ "cloud.google.com/go/firestore"
	_ "cloud.google.com/go/pubsub/v2"
	_ "firebase.google.com/go/v4"
	_ "github.com/GoogleCloudPlatform/functions-framework-go/funcframework"
	_ "github.com/golang-jwt/jwt/v5"
	_ "github.com/stretchr/testify/require"
)
