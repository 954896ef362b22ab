from kingdoms.cli import main

main()
