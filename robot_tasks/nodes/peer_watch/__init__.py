"""peer_watch: reports the nodes a bringup expects on other computers as they come and go."""
