package functions

import (
	"context"
	"errors"
	"net/http"
	"os"
	"strconv"
	"sync"
	"time"

	firebase "firebase.google.com/go/v4"
	fbauth "firebase.google.com/go/v4/auth"
	"github.com/GoogleCloudPlatform/functions-framework-go/functions"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/store"
)

// Deploy registers the HTTP functions of a registry with the Functions
// Framework: the deploy root calls it at init with the deployment's
// registry, and --entry-point picks one function by name.
func Deploy(reg domain.Registry) {
	defaultMu.Lock()
	defaultReg = reg
	defaultMu.Unlock()
	for _, name := range Names(reg) {
		functions.HTTP(name, deployed(name))
	}
}

var (
	defaultMu     sync.Mutex
	defaultReg    domain.Registry
	defaultServer *Server
	defaultRoutes map[string]http.HandlerFunc
)

// SetDefault makes s the server the registered functions use: the local stack
// hands in its own instead of one built from the environment.
func SetDefault(s *Server) {
	defaultMu.Lock()
	defer defaultMu.Unlock()
	defaultServer, defaultRoutes = s, s.Routes()
}

// deployed builds the server on first use, not at cold start, so a function
// instance that is never called never dials Firestore.
func deployed(name string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		routes, err := defaultHandlers(r.Context())
		if err != nil {
			writeError(w, r, err)
			return
		}
		routes[name](w, r)
	}
}

func defaultHandlers(ctx context.Context) (map[string]http.HandlerFunc, error) {
	defaultMu.Lock()
	defer defaultMu.Unlock()
	if defaultRoutes != nil {
		return defaultRoutes, nil
	}
	s, err := ServerFromEnv(ctx, defaultReg)
	if err != nil {
		return nil, err
	}
	defaultServer, defaultRoutes = s, s.Routes()
	return defaultRoutes, nil
}

// ServerFromEnv builds the production server: Firestore from the environment,
// the session secret from MEEPLE_JWT_SECRET (Secret Manager in production),
// Firebase custom tokens from the Admin SDK — or unsigned mock tokens when
// FIRESTORE_EMULATOR_HOST says this is the local stack.
func ServerFromEnv(ctx context.Context, reg domain.Registry) (*Server, error) {
	secret := os.Getenv("MEEPLE_JWT_SECRET")
	if len(secret) < 32 {
		return nil, errors.New("MEEPLE_JWT_SECRET must be set to at least 32 characters")
	}
	st, err := store.Default(ctx, reg)
	if err != nil {
		return nil, err
	}
	s := &Server{Store: st, Sessions: &Sessions{Secret: []byte(secret)}, AllowOrigin: os.Getenv("MEEPLE_CORS_ORIGIN"), TrustedProxies: 1}
	if v := os.Getenv("MEEPLE_TRUSTED_PROXIES"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return nil, errors.New("MEEPLE_TRUSTED_PROXIES must be a whole number ≥ 0")
		}
		s.TrustedProxies = n
	}
	if v := os.Getenv("MEEPLE_QUEUE_WINDOW"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 100 {
			return nil, errors.New("MEEPLE_QUEUE_WINDOW must be a whole number from 1 to 100")
		}
		st.QueueWindow = n
	}
	if os.Getenv("FIRESTORE_EMULATOR_HOST") != "" {
		s.TrustedProxies = 0 // nothing in front of the local stack
		project := os.Getenv("GOOGLE_CLOUD_PROJECT")
		if project == "" {
			project = store.LocalProject
		}
		s.FirebaseToken = func(_ context.Context, a domain.Actor) (string, error) {
			return UnsignedFirebaseToken(project, a, time.Now()), nil
		}
		return s, nil
	}
	s.FirebaseToken = adminSDKTokens()
	return s, nil
}

// adminSDKTokens mints Firebase custom tokens with the Admin SDK, which signs
// through the IAM API as the function's service account (it needs the
// Service Account Token Creator role on itself).
func adminSDKTokens() func(ctx context.Context, a domain.Actor) (string, error) {
	var (
		once   sync.Once
		client *fbauth.Client
		err    error
	)
	return func(ctx context.Context, a domain.Actor) (string, error) {
		once.Do(func() {
			var app *firebase.App
			if app, err = firebase.NewApp(context.Background(), nil); err == nil {
				client, err = app.Auth(context.Background())
			}
		})
		if err != nil {
			return "", err
		}
		claims := map[string]any{"role": string(a.Role), "name": a.Name}
		if a.Game != "" {
			claims["game"] = a.Game
		}
		return client.CustomTokenWithClaims(ctx, a.ID, claims)
	}
}
